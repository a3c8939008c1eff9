// A module without kda2 kernels (used by errors.mlir).
module {
}
