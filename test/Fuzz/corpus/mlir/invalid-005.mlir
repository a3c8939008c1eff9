//===----------------------------------------------------------------------===//
// Annotation attribute parameters
//===----------------------------------------------------------------------===//

// A coalescing condition needs a positive modulus.
// expected-error @below {{coalescing condition on 'n' needs a positive modulus, got 0}}
kda2.kernel @k(%x: !kda2.tensor<[n], f32>) attributes {a = #kda2.coalesced_access<dim = "n">} {
}
