/*
** jps.h -- what the two jump point searches share (jps.c: scanned runs;
** jpsplus.c: precomputed jump distances): the direction tables and the
** pruning rule of 8-connected grids without corner cutting.  Private to
** the core.
*/
#ifndef ASTAR_JPS_H
#define ASTAR_JPS_H

/* Jump point searches touch few nodes far apart: their loops keep sparse
** node state (engine.h) when this header comes before any that includes
** engine.h.  The single-file build (make dist) includes engine.h once,
** earlier, for every loop: there they keep dense state, and
** astar__jps_sparse (jps.c) tells search.c which. */
#ifndef ASTAR_ENGINE_H
#define ASTAR_ENGINE_SPARSE 1
#endif
#include "lattice.h"

/* E, W, S, N, SE, NE, SW, NW (grid.c's order) */
static const int jdx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int jdy[8] = {0, 0, 1, -1, 1, -1, 1, -1};

/* The direction of the last step from padded cell (px, py) into (x, y)
** along the jump between them: the straight leg's when there is one. */
ASTAR_INLINE int arrival(int32_t px, int32_t py, int32_t x, int32_t y) {
  int32_t ax = x > px ? x - px : px - x, ay = y > py ? y - py : py - y;
  if (ax > ay) return x > px ? 0 : 1;
  if (ay > ax) return y > py ? 2 : 3;
  return y > py ? (x > px ? 4 : 6) : (x > px ? 5 : 7);
}

/* The directions worth scanning from p (open cell (x, y)) reached by a
** jump whose last step went in direction d (-1 at the start): straight on,
** and a turn where the cell behind the turn is blocked (the side cell is
** then reached through p or not at all); after a diagonal step, its two
** components too.  The grid's move mask then drops what the rule forbids. */
ASTAR_INLINE unsigned dirs8(const astar_grid *gr, int32_t p, int d) {
  const unsigned char *b = gr->blocked;
  int32_t pw = gr->pw;
  unsigned r;
  switch (d) {
    case 0: /* E: N forced when NW is blocked, S when SW is */
      r = 1u << 0;
      if (b[p - pw - 1]) r |= 1u << 3 | 1u << 5;
      if (b[p + pw - 1]) r |= 1u << 2 | 1u << 4;
      return r;
    case 1: /* W */
      r = 1u << 1;
      if (b[p - pw + 1]) r |= 1u << 3 | 1u << 7;
      if (b[p + pw + 1]) r |= 1u << 2 | 1u << 6;
      return r;
    case 2: /* S: E forced when NE is blocked, W when NW is */
      r = 1u << 2;
      if (b[p - pw + 1]) r |= 1u << 0 | 1u << 4;
      if (b[p - pw - 1]) r |= 1u << 1 | 1u << 6;
      return r;
    case 3: /* N */
      r = 1u << 3;
      if (b[p + pw + 1]) r |= 1u << 0 | 1u << 5;
      if (b[p + pw - 1]) r |= 1u << 1 | 1u << 7;
      return r;
    case 4: return 1u << 4 | 1u << 0 | 1u << 2;
    case 5: return 1u << 5 | 1u << 0 | 1u << 3;
    case 6: return 1u << 6 | 1u << 1 | 1u << 2;
    case 7: return 1u << 7 | 1u << 1 | 1u << 3;
    default: return 0xffu;
  }
}

#endif
