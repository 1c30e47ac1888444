/*
** jpsunits.h -- what jump point search for units of size k (jps.c:
** expand_unit) reads of the unit's grid, the cells where it fits: its moves
** and forced turns from the clearance layer, a diagonal run's moves from
** the unit's bit sets (jpsunits.c).  Private to the core.
*/
#ifndef ASTAR_JPSUNITS_H
#define ASTAR_JPSUNITS_H

#include "jps.h"

#define FITS(gr, c, k) ((gr)->clear[c] >= (k))

/* The unit's moves out of c among d's: each straight step where the unit
** fits, a diagonal one where it fits there and at both side positions. */
ASTAR_INLINE unsigned unit_moves(const astar_grid *gr, int32_t c, int32_t k) {
  unsigned m = 0;
  int d;
  for (d = 0; d < 4; d++)
    if (FITS(gr, c + gr->off[0][d], k)) m |= 1u << d;
  for (d = 4; d < 8; d++) {
    unsigned sides = 1u << (jdx[d] > 0 ? 0 : 1) | 1u << (jdy[d] > 0 ? 2 : 3);
    if ((m & sides) == sides && FITS(gr, c + gr->off[0][d], k)) m |= 1u << d;
  }
  return m;
}

/* The moves out of padded cell (x, y) that a diagonal run in direction d
** reads (its two components and d itself), from the unit's bit sets (rows
** lie closer together than the clearance layer's). */
ASTAR_INLINE unsigned unit_diag_moves(const astar_grid *gr, const uint64_t *bits, int32_t x,
                                      int32_t y, int d) {
  const int h = jdx[d] > 0 ? 0 : 1, v = jdy[d] > 0 ? 2 : 3;
  const int32_t nx = x + jdx[d];
  const uint64_t *row = bits + (size_t)y * (size_t)gr->rw;
  const uint64_t *next = bits + (size_t)(y + jdy[d]) * (size_t)gr->rw;
  unsigned fh = (unsigned)(row[nx >> 6] >> (nx & 63)) & 1u;
  unsigned fv = (unsigned)(next[x >> 6] >> (x & 63)) & 1u;
  unsigned fd = fh & fv & (unsigned)(next[nx >> 6] >> (nx & 63));
  return fh << h | fv << v | (fd & 1u) << d;
}

/* dirs8 on the derived grid: forced turns where the unit does not fit
** behind them. */
ASTAR_INLINE unsigned unit_dirs(const astar_grid *gr, int32_t p, int d, int32_t k) {
  int32_t pw = gr->pw;
  unsigned r;
  switch (d) {
    case 0:
      r = 1u << 0;
      if (!FITS(gr, p - pw - 1, k)) r |= 1u << 3 | 1u << 5;
      if (!FITS(gr, p + pw - 1, k)) r |= 1u << 2 | 1u << 4;
      return r;
    case 1:
      r = 1u << 1;
      if (!FITS(gr, p - pw + 1, k)) r |= 1u << 3 | 1u << 7;
      if (!FITS(gr, p + pw + 1, k)) r |= 1u << 2 | 1u << 6;
      return r;
    case 2:
      r = 1u << 2;
      if (!FITS(gr, p - pw + 1, k)) r |= 1u << 0 | 1u << 4;
      if (!FITS(gr, p - pw - 1, k)) r |= 1u << 1 | 1u << 6;
      return r;
    case 3:
      r = 1u << 3;
      if (!FITS(gr, p + pw + 1, k)) r |= 1u << 0 | 1u << 5;
      if (!FITS(gr, p + pw - 1, k)) r |= 1u << 1 | 1u << 7;
      return r;
    default: return dirs8(gr, p, d); /* diagonal arrivals read no cell */
  }
}

#endif
