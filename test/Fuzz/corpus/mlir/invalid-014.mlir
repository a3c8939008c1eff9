// kda2.target names a known profile.
// expected-error @below {{unknown hardware profile 'B200'; known profiles: A100-40GB-PCIe, A100-40GB-SXM4, A100-80GB-SXM4, H100-SXM, H200-SXM, RTX-4090}}
module attributes {kda2.target = "B200"} {
}
