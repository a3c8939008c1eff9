// A select's condition is i1.
%c = arith.constant 1.0 : f32
// expected-error @below {{'kda2.select' op condition must be i1 or a tile of i1, got 'f32'}}
%r = kda2.select %c, %c, %c : f32, f32, f32 -> f32
