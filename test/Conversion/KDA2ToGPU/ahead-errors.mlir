// RUN: kda2-opt %s --split-input-file --convert-kda2-to-gpu --verify-diagnostics
// The located errors of `schedule.ahead` loops and `@warpgroup_registers`
// in the GPU lowering
// (test/Conversion/KDA2ToGPU/ahead.tirx has one that lowers).

// Without a producer warp there is no second group of threads to run it.
kda2.kernel @ah(%v: !kda2.tensor<[g, n, 16, 128], bf16>, %x: !kda2.tensor<[g, n, 16, 128], f32>, %o: !kda2.tensor<[g, n, 16, 128], f32> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["v", "x", "o"], grid = ["g"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %v, %x, %o layout(row_major) packing(none) : !kda2.tensor<[g, n, 16, 128], bf16>, !kda2.tensor<[g, n, 16, 128], f32>, !kda2.tensor<[g, n, 16, 128], f32>
  %Vs = kda2.smem_alloc size(4096) : !kda2.tensor<[16, 128], bf16, smem>
  %Xs = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 128], f32, smem>
  %R = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %n = kda2.dim "n" : index
    kda2.loop serial %c to %n annotations [#kda2.pragma<tma_pipeline>, #kda2.pragma<unroll>] {
      %t1 = kda2.load %v[%c] : !kda2.tensor<[g, n, 16, 128], bf16> -> tensor<16x128xbf16>
      kda2.store %t1, %Vs[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
      // expected-error @below {{'kda2.loop' op needs the loop around it pipelined with a producer warp ('#pragma tma_pipeline' and '@producer_warp' in effect: see their warnings)}}
      kda2.loop ahead %a to %c1 {
        kda2.loop thread %t to %c128 {
          kda2.loop serial %e to %c16 {
            %2 = kda2.load %x[%c, %e, %t] : !kda2.tensor<[g, n, 16, 128], f32> -> f32
            kda2.store %2, %Xs[%e, %t] : f32, !kda2.tensor<[16, 128], f32, smem>
          }
        }
      }
      kda2.loop thread %t to %c128 {
        kda2.loop serial %e to %c16 {
          %2 = kda2.load %Vs[%e, %t] : !kda2.tensor<[16, 128], bf16, smem> -> bf16
          %3 = kda2.cast %2 : bf16 -> f32
          %4 = kda2.load %Xs[%e, %t] : !kda2.tensor<[16, 128], f32, smem> -> f32
          %5 = kda2.mul %3, %4 : f32, f32 -> f32
          kda2.store %5, %o[%c, %e, %t] : f32, !kda2.tensor<[g, n, 16, 128], f32>
        }
      }
    }
  }
  kda2.return
}

// -----

// Each group of threads has its own registers.
kda2.kernel @ah(%v: !kda2.tensor<[g, n, 16, 128], bf16>, %x: !kda2.tensor<[g, n, 16, 128], f32>, %o: !kda2.tensor<[g, n, 16, 128], f32> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["v", "x", "o"], grid = ["g"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %v, %x, %o layout(row_major) packing(none) : !kda2.tensor<[g, n, 16, 128], bf16>, !kda2.tensor<[g, n, 16, 128], f32>, !kda2.tensor<[g, n, 16, 128], f32>
  %Vs = kda2.smem_alloc size(4096) : !kda2.tensor<[16, 128], bf16, smem>
  %Xs = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 128], f32, smem>
  %R = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %n = kda2.dim "n" : index
    kda2.loop serial %c to %n annotations [#kda2.pragma<tma_pipeline>, #kda2.producer_warp] {
      %t1 = kda2.load %v[%c] : !kda2.tensor<[g, n, 16, 128], bf16> -> tensor<16x128xbf16>
      kda2.store %t1, %Vs[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
      kda2.loop thread %t to %c128 {
        %z = arith.constant 0.0 : f32
        kda2.store %z, %R[%c0] : f32, !kda2.tensor<[1], f32, reg>
      }
      // expected-error @below {{'kda2.loop' op uses a register tile that code outside it uses too: each group of threads has its own registers}}
      kda2.loop ahead %a to %c1 {
        kda2.loop thread %t to %c128 {
          %r = kda2.load %R[%c0] : !kda2.tensor<[1], f32, reg> -> f32
          kda2.store %r, %Xs[%c0, %t] : f32, !kda2.tensor<[16, 128], f32, smem>
        }
      }
      kda2.loop thread %t to %c128 {
        kda2.loop serial %e to %c16 {
          %2 = kda2.load %Vs[%e, %t] : !kda2.tensor<[16, 128], bf16, smem> -> bf16
          %3 = kda2.cast %2 : bf16 -> f32
          %4 = kda2.load %Xs[%e, %t] : !kda2.tensor<[16, 128], f32, smem> -> f32
          %5 = kda2.mul %3, %4 : f32, f32 -> f32
          kda2.store %5, %o[%c, %e, %t] : f32, !kda2.tensor<[g, n, 16, 128], f32>
        }
      }
    }
  }
  kda2.return
}

// -----

// It hands tiles over; it does not read what the loop's other threads write (here the copy's Vs).
kda2.kernel @ah(%v: !kda2.tensor<[g, n, 16, 128], bf16>, %x: !kda2.tensor<[g, n, 16, 128], f32>, %o: !kda2.tensor<[g, n, 16, 128], f32> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["v", "x", "o"], grid = ["g"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %v, %x, %o layout(row_major) packing(none) : !kda2.tensor<[g, n, 16, 128], bf16>, !kda2.tensor<[g, n, 16, 128], f32>, !kda2.tensor<[g, n, 16, 128], f32>
  %Vs = kda2.smem_alloc size(4096) : !kda2.tensor<[16, 128], bf16, smem>
  %Xs = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 128], f32, smem>
  %R = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %n = kda2.dim "n" : index
    kda2.loop serial %c to %n annotations [#kda2.pragma<tma_pipeline>, #kda2.producer_warp] {
      %t1 = kda2.load %v[%c] : !kda2.tensor<[g, n, 16, 128], bf16> -> tensor<16x128xbf16>
      kda2.store %t1, %Vs[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
      // expected-error @below {{'kda2.loop' op reads or writes a shared buffer that code outside it writes; the ahead body hands tiles over, it does not take them}}
      kda2.loop ahead %a to %c1 {
        kda2.loop thread %t to %c128 {
          %r = kda2.load %Vs[%c0, %t] : !kda2.tensor<[16, 128], bf16, smem> -> bf16
          %f = kda2.cast %r : bf16 -> f32
          kda2.store %f, %Xs[%c0, %t] : f32, !kda2.tensor<[16, 128], f32, smem>
        }
      }
      kda2.loop thread %t to %c128 {
        kda2.loop serial %e to %c16 {
          %2 = kda2.load %Vs[%e, %t] : !kda2.tensor<[16, 128], bf16, smem> -> bf16
          %3 = kda2.cast %2 : bf16 -> f32
          %4 = kda2.load %Xs[%e, %t] : !kda2.tensor<[16, 128], f32, smem> -> f32
          %5 = kda2.mul %3, %4 : f32, f32 -> f32
          kda2.store %5, %o[%c, %e, %t] : f32, !kda2.tensor<[g, n, 16, 128], f32>
        }
      }
    }
  }
  kda2.return
}

// -----

// Values of the loop body other than index arithmetic on the loop variable are the computing threads'.
kda2.kernel @ah(%v: !kda2.tensor<[g, n, 16, 128], bf16>, %x: !kda2.tensor<[g, n, 16, 128], f32>, %o: !kda2.tensor<[g, n, 16, 128], f32> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["v", "x", "o"], grid = ["g"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %v, %x, %o layout(row_major) packing(none) : !kda2.tensor<[g, n, 16, 128], bf16>, !kda2.tensor<[g, n, 16, 128], f32>, !kda2.tensor<[g, n, 16, 128], f32>
  %Vs = kda2.smem_alloc size(4096) : !kda2.tensor<[16, 128], bf16, smem>
  %Xs = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 128], f32, smem>
  %R = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %n = kda2.dim "n" : index
    kda2.loop serial %c to %n annotations [#kda2.pragma<tma_pipeline>, #kda2.producer_warp] {
      %t1 = kda2.load %v[%c] : !kda2.tensor<[g, n, 16, 128], bf16> -> tensor<16x128xbf16>
      kda2.store %t1, %Vs[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
      %s = kda2.load %x[%c, %c0, %c0] : !kda2.tensor<[g, n, 16, 128], f32> -> f32
      kda2.loop ahead %a to %c1 {
        kda2.loop thread %t to %c128 {
          // expected-error @below {{'kda2.store' op uses a value the loop's other threads compute (only index arithmetic on the loop variable is recomputed ahead)}}
          kda2.store %s, %Xs[%c0, %t] : f32, !kda2.tensor<[16, 128], f32, smem>
        }
      }
      kda2.loop thread %t to %c128 {
        kda2.loop serial %e to %c16 {
          %2 = kda2.load %Vs[%e, %t] : !kda2.tensor<[16, 128], bf16, smem> -> bf16
          %3 = kda2.cast %2 : bf16 -> f32
          %4 = kda2.load %Xs[%e, %t] : !kda2.tensor<[16, 128], f32, smem> -> f32
          %5 = kda2.mul %3, %4 : f32, f32 -> f32
          kda2.store %5, %o[%c, %e, %t] : f32, !kda2.tensor<[g, n, 16, 128], f32>
        }
      }
    }
  }
  kda2.return
}

// -----

// The groups' registers must fit the register file.
kda2.kernel @ah(%v: !kda2.tensor<[g, n, 16, 128], bf16>, %x: !kda2.tensor<[g, n, 16, 128], f32>, %o: !kda2.tensor<[g, n, 16, 128], f32> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["v", "x", "o"], grid = ["g"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %v, %x, %o layout(row_major) packing(none) : !kda2.tensor<[g, n, 16, 128], bf16>, !kda2.tensor<[g, n, 16, 128], f32>, !kda2.tensor<[g, n, 16, 128], f32>
  %Vs = kda2.smem_alloc size(4096) : !kda2.tensor<[16, 128], bf16, smem>
  %Xs = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 128], f32, smem>
  %R = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %n = kda2.dim "n" : index
    // expected-error @below {{'kda2.loop' op '@warpgroup_registers' asks for 98304 registers in all (computing 128 x 256, ahead 128 x 256, producer 128 x 256), more than the block's 64512 (168 per thread at launch)}}
    kda2.loop serial %c to %n annotations [#kda2.pragma<tma_pipeline>, #kda2.producer_warp, #kda2.warpgroup_registers<256, 256, 256>] {
      %t1 = kda2.load %v[%c] : !kda2.tensor<[g, n, 16, 128], bf16> -> tensor<16x128xbf16>
      kda2.store %t1, %Vs[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
      kda2.loop ahead %a to %c1 {
        kda2.loop thread %t to %c128 {
          kda2.loop serial %e to %c16 {
            %2 = kda2.load %x[%c, %e, %t] : !kda2.tensor<[g, n, 16, 128], f32> -> f32
            kda2.store %2, %Xs[%e, %t] : f32, !kda2.tensor<[16, 128], f32, smem>
          }
        }
      }
      kda2.loop thread %t to %c128 {
        kda2.loop serial %e to %c16 {
          %2 = kda2.load %Vs[%e, %t] : !kda2.tensor<[16, 128], bf16, smem> -> bf16
          %3 = kda2.cast %2 : bf16 -> f32
          %4 = kda2.load %Xs[%e, %t] : !kda2.tensor<[16, 128], f32, smem> -> f32
          %5 = kda2.mul %3, %4 : f32, f32 -> f32
          kda2.store %5, %o[%c, %e, %t] : f32, !kda2.tensor<[g, n, 16, 128], f32>
        }
      }
    }
  }
  kda2.return
}

// -----

// setmaxnreg works on whole warpgroups.
kda2.kernel @ah(%v: !kda2.tensor<[g, n, 16, 128], bf16>, %x: !kda2.tensor<[g, n, 16, 128], f32>, %o: !kda2.tensor<[g, n, 16, 128], f32> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["v", "x", "o"], grid = ["g"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %v, %x, %o layout(row_major) packing(none) : !kda2.tensor<[g, n, 16, 128], bf16>, !kda2.tensor<[g, n, 16, 128], f32>, !kda2.tensor<[g, n, 16, 128], f32>
  %Vs = kda2.smem_alloc size(4096) : !kda2.tensor<[16, 128], bf16, smem>
  %Xs = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 128], f32, smem>
  %R = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 64 : index
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %n = kda2.dim "n" : index
    // expected-error @below {{'kda2.loop' op '@warpgroup_registers' needs whole warpgroups: the block computes with 64 threads, not a multiple of 128}}
    kda2.loop serial %c to %n annotations [#kda2.pragma<tma_pipeline>, #kda2.producer_warp, #kda2.warpgroup_registers<232, 160, 40>] {
      %t1 = kda2.load %v[%c] : !kda2.tensor<[g, n, 16, 128], bf16> -> tensor<16x128xbf16>
      kda2.store %t1, %Vs[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
      kda2.loop ahead %a to %c1 {
        kda2.loop thread %t to %c128 {
          kda2.loop serial %e to %c16 {
            %2 = kda2.load %x[%c, %e, %t] : !kda2.tensor<[g, n, 16, 128], f32> -> f32
            kda2.store %2, %Xs[%e, %t] : f32, !kda2.tensor<[16, 128], f32, smem>
          }
        }
      }
      kda2.loop thread %t to %c128 {
        kda2.loop serial %e to %c16 {
          %2 = kda2.load %Vs[%e, %t] : !kda2.tensor<[16, 128], bf16, smem> -> bf16
          %3 = kda2.cast %2 : bf16 -> f32
          %4 = kda2.load %Xs[%e, %t] : !kda2.tensor<[16, 128], f32, smem> -> f32
          %5 = kda2.mul %3, %4 : f32, f32 -> f32
          kda2.store %5, %o[%c, %e, %t] : f32, !kda2.tensor<[g, n, 16, 128], f32>
        }
      }
    }
  }
  kda2.return
}

// -----

// An ahead group's count needs an ahead loop.
kda2.kernel @ah(%v: !kda2.tensor<[g, n, 16, 128], bf16>, %x: !kda2.tensor<[g, n, 16, 128], f32>, %o: !kda2.tensor<[g, n, 16, 128], f32> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["v", "x", "o"], grid = ["g"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %v, %x, %o layout(row_major) packing(none) : !kda2.tensor<[g, n, 16, 128], bf16>, !kda2.tensor<[g, n, 16, 128], f32>, !kda2.tensor<[g, n, 16, 128], f32>
  %Vs = kda2.smem_alloc size(4096) : !kda2.tensor<[16, 128], bf16, smem>
  %Xs = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 128], f32, smem>
  %R = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %n = kda2.dim "n" : index
    // expected-error @below {{'kda2.loop' op '@warpgroup_registers' gives the ahead group 160 registers, but the loop has no 'schedule.ahead' body}}
    kda2.loop serial %c to %n annotations [#kda2.pragma<tma_pipeline>, #kda2.producer_warp, #kda2.warpgroup_registers<232, 160, 40>] {
      %t1 = kda2.load %v[%c] : !kda2.tensor<[g, n, 16, 128], bf16> -> tensor<16x128xbf16>
      kda2.store %t1, %Vs[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
      kda2.loop thread %t to %c128 {
        kda2.loop serial %e to %c16 {
          %2 = kda2.load %Vs[%e, %t] : !kda2.tensor<[16, 128], bf16, smem> -> bf16
          %3 = kda2.cast %2 : bf16 -> f32
          %5 = kda2.mul %3, %3 : f32, f32 -> f32
          kda2.store %5, %o[%c, %e, %t] : f32, !kda2.tensor<[g, n, 16, 128], f32>
        }
      }
    }
  }
  kda2.return
}

// -----

// It sets the registers of a producer-warp pipeline's groups.
kda2.kernel @ah(%v: !kda2.tensor<[g, n, 16, 128], bf16>, %x: !kda2.tensor<[g, n, 16, 128], f32>, %o: !kda2.tensor<[g, n, 16, 128], f32> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["v", "x", "o"], grid = ["g"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %v, %x, %o layout(row_major) packing(none) : !kda2.tensor<[g, n, 16, 128], bf16>, !kda2.tensor<[g, n, 16, 128], f32>, !kda2.tensor<[g, n, 16, 128], f32>
  %Vs = kda2.smem_alloc size(4096) : !kda2.tensor<[16, 128], bf16, smem>
  %Xs = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 128], f32, smem>
  %R = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %n = kda2.dim "n" : index
    // expected-error @below {{'kda2.loop' op '@warpgroup_registers' needs '@producer_warp' in effect on the same loop (see its warning)}}
    kda2.loop serial %c to %n annotations [#kda2.pragma<tma_pipeline>, #kda2.warpgroup_registers<232, 0, 40>] {
      %t1 = kda2.load %v[%c] : !kda2.tensor<[g, n, 16, 128], bf16> -> tensor<16x128xbf16>
      kda2.store %t1, %Vs[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
      kda2.loop thread %t to %c128 {
        kda2.loop serial %e to %c16 {
          %2 = kda2.load %Vs[%e, %t] : !kda2.tensor<[16, 128], bf16, smem> -> bf16
          %3 = kda2.cast %2 : bf16 -> f32
          %5 = kda2.mul %3, %3 : f32, f32 -> f32
          kda2.store %5, %o[%c, %e, %t] : f32, !kda2.tensor<[g, n, 16, 128], f32>
        }
      }
    }
  }
  kda2.return
}

// -----

// A buffer copied ahead is the ahead group's own.
kda2.kernel @ah(%v: !kda2.tensor<[g, n, 16, 128], bf16>, %x: !kda2.tensor<[g, n, 16, 128], f32>, %o: !kda2.tensor<[g, n, 16, 128], f32> {kda2.io = #kda2.io<out>}) attributes {arg_names = ["v", "x", "o"], grid = ["g"], pragmas = [#kda2.pragma<tma_coalesce>]} {
  kda2.gmem %v, %x, %o layout(row_major) packing(none) : !kda2.tensor<[g, n, 16, 128], bf16>, !kda2.tensor<[g, n, 16, 128], f32>, !kda2.tensor<[g, n, 16, 128], f32>
  %Vs = kda2.smem_alloc size(4096) : !kda2.tensor<[16, 128], bf16, smem>
  %Xs = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 128], f32, smem>
  %Xi = kda2.smem_alloc size(8192) : !kda2.tensor<[16, 128], f32, smem>
  %R = kda2.reg_alloc : !kda2.tensor<[1], f32, reg>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %c128 = arith.constant 128 : index
  kda2.loop block %i to %c1 annotations [#kda2.bank_conflict_free] {
    %n = kda2.dim "n" : index
    kda2.loop serial %c to %n annotations [#kda2.pragma<tma_pipeline>, #kda2.producer_warp] {
      %t1 = kda2.load %v[%c] : !kda2.tensor<[g, n, 16, 128], bf16> -> tensor<16x128xbf16>
      kda2.store %t1, %Vs[] : tensor<16x128xbf16>, !kda2.tensor<[16, 128], bf16, smem>
      kda2.loop ahead %a to %c1 {
        %xt = kda2.load %x[%c] : !kda2.tensor<[g, n, 16, 128], f32> -> tensor<16x128xf32>
        // expected-error @below {{'kda2.store' op is copied ahead into a buffer that other code also writes or reads outside the ahead body}}
        kda2.store %xt, %Xi[] : tensor<16x128xf32>, !kda2.tensor<[16, 128], f32, smem>
        kda2.loop thread %t to %c128 {
          kda2.loop serial %e to %c16 {
            %2 = kda2.load %x[%c, %e, %t] : !kda2.tensor<[g, n, 16, 128], f32> -> f32
            kda2.store %2, %Xs[%e, %t] : f32, !kda2.tensor<[16, 128], f32, smem>
          }
        }
      }
      kda2.loop thread %t to %c128 {
        kda2.loop serial %e to %c16 {
          %2 = kda2.load %Vs[%e, %t] : !kda2.tensor<[16, 128], bf16, smem> -> bf16
          %3 = kda2.cast %2 : bf16 -> f32
          %4 = kda2.load %Xi[%e, %t] : !kda2.tensor<[16, 128], f32, smem> -> f32
          %5 = kda2.mul %3, %4 : f32, f32 -> f32
          kda2.store %5, %o[%c, %e, %t] : f32, !kda2.tensor<[g, n, 16, 128], f32>
        }
      }
    }
  }
  kda2.return
}

