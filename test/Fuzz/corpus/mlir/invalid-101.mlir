// Counter names are identifiers.
%v = arith.constant 1 : i64
// expected-error @below {{'kda2.counter' op counter name 'l2 bytes' is not an identifier}}
kda2.counter "l2 bytes", %v : i64
