// Other kda2.* discardable attributes are rejected.
// expected-error @below {{unknown kda2 attribute 'kda2.arch'}}
module attributes {kda2.arch = "sm_90a"} {
}
