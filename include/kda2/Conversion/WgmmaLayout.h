//===- WgmmaLayout.h - wgmma operands in swizzled TMA tiles -----*- C++ -*-===//
//
// The shared-memory operands of wgmma (sm_90a) as the kda2 lowering places
// them: a 2-D tile [rows, cols] of 16-bit elements arrives by TMA in boxes
// `perRow` elements wide (span = perRow * 2 bytes of 32, 64 or 128, the
// box's swizzle), box p (columns p * perRow ...) at p * rows * span bytes,
// row r of a box at r * span, the 16-byte chunks of each row permuted by
// the swizzle (bits 4 .. log2(span) - 1 of the address ^= bits 7 ...), the
// tile 1024-byte aligned. Those are wgmma's canonical swizzled layouts
// (PTX ISA, "Shared Memory Matrix Layout"): with the tile's columns the
// contraction (K-major: the rows are m or n) or the other dimension
// (MN-major: the rows are k). These functions give the descriptor's fields
// and each k step's start; unittests/Conversion checks them against the
// canonical layouts element by element.
//
//===----------------------------------------------------------------------===//

#ifndef KDA2_CONVERSION_WGMMALAYOUT_H
#define KDA2_CONVERSION_WGMMALAYOUT_H

#include <cstdint>

namespace mlir::kda2 {

/// A swizzled tile's geometry (bytes, and elements per box row).
struct SwizzledTile {
  int64_t rows;        ///< rows of the tile (a multiple of 8)
  int64_t perRow;      ///< elements per box row
  int64_t elementBytes;
  int64_t span() const { return perRow * elementBytes; }
  int64_t pieceBytes() const { return rows * span(); }
};

/// The fields of a wgmma matrix descriptor, before encoding (bytes; the
/// descriptor holds them >> 4).
struct WgmmaDescriptorFields {
  int64_t leadingByteOffset; ///< K-major: unused (encoded 1)
  int64_t strideByteOffset;
  int64_t swizzleMode; ///< 1: 128-byte, 2: 64-byte, 3: 32-byte swizzle
};

/// K-major: 8-row groups (of m or n) 8 span bytes apart, the leading
/// offset unused. MN-major: the next span-wide group of m / n columns one
/// box later (the leading offset), 8-row groups of k 8 span bytes apart.
inline WgmmaDescriptorFields wgmmaDescriptorFields(const SwizzledTile &tile,
                                                   bool kMajor) {
  int64_t span = tile.span();
  return {kMajor ? 16 : tile.pieceBytes(), 8 * span,
          span == 128 ? 1 : span == 64 ? 2 : 3};
}

/// The byte offset into the tile where k step `kk` (k = 16 kk ... 16 kk +
/// 15) of an operand starts: along the rows' contiguous columns (K-major:
/// the step's box, then 32 bytes per step inside it) or down the rows
/// (MN-major: 16 rows of k).
inline int64_t wgmmaStepOffset(const SwizzledTile &tile, bool kMajor,
                               int64_t kk) {
  if (kMajor)
    return (16 * kk / tile.perRow) * tile.pieceBytes() +
           (16 * kk % tile.perRow) * tile.elementBytes;
  return 16 * kk * tile.span();
}

/// The byte offset of the first of 64 rows `64 g` (m or n) of an operand:
/// 8 groups of 8 rows (K-major), or 64 / perRow boxes (MN-major).
inline int64_t wgmmaRowGroupOffset(const SwizzledTile &tile, bool kMajor,
                                   int64_t g) {
  return kMajor ? 64 * g * tile.span() : (64 * g / tile.perRow) *
                                             tile.pieceBytes();
}

/// The 64-bit descriptor of a tile whose (shared-window) address plus
/// offset is `address`.
inline uint64_t encodeWgmmaDescriptor(uint64_t address,
                                      const WgmmaDescriptorFields &f) {
  return ((address & 0x3FFFF) >> 4) |
         (uint64_t(f.leadingByteOffset >> 4) << 16) |
         (uint64_t(f.strideByteOffset >> 4) << 32) |
         (uint64_t(f.swizzleMode) << 62);
}

} // namespace mlir::kda2

#endif // KDA2_CONVERSION_WGMMALAYOUT_H
