// index converts only to and from integers.
%a = arith.constant 1 : index
// expected-error @below {{'kda2.cast' op index converts only to and from integers}}
%r = kda2.cast %a : index -> f32
