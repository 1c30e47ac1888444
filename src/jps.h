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

/* Whether bits lo..hi (lo <= hi) of line m are all set: the cells between
** are open. */
ASTAR_INLINE int line_open(const uint64_t *m, int32_t lo, int32_t hi) {
  size_t k = (size_t)lo >> 6, last = (size_t)hi >> 6;
  uint64_t first = ~(uint64_t)0 << (lo & 63);
  uint64_t end = (hi & 63) == 63 ? ~(uint64_t)0 : ((uint64_t)1 << ((hi & 63) + 1)) - 1;
  for (; k <= last; k++, first = ~(uint64_t)0) {
    uint64_t need = first & (k == last ? end : ~(uint64_t)0);
    if ((m[LAT_OPEN_W(k)] & need) != need) return 0;
  }
  return 1;
}

/* The goal-visible test (warthog's "jump_target"), shared by both jump
** point searches: from padded cell p = (px, py), whose expansion may take
** the directions in mask m (within p's move mask), toward the goal at
** padded (gx, gy): when the run toward it -- diagonal first, then
** straight, the jumps' own shape -- is unobstructed, the run's cost (the
** octile distance), else -1.  The run's first direction is tested against
** m before anything else is computed (most expansions stop there); then
** the move masks along the diagonal (p's own is m's) and the row or
** column bit sets along the straight part. */
ASTAR_INLINE double jps_goal_run(const astar_grid *gr, int32_t p, int32_t px, int32_t py,
                                 int32_t gx, int32_t gy, unsigned m) {
  int32_t dx = gx - px, dy = gy - py, ax, ay, nd, ns, i, c, x, y;
  int d;
  if (dx && dy) d = 4 + 2 * (dx < 0) + (dy < 0); /* SE, NE, SW, NW */
  else if (dx) d = dx < 0;                       /* E, W */
  else if (dy) d = 2 + (dy < 0);                 /* S, N */
  else return -1;
  if (!(m >> d & 1u)) return -1;
  ax = dx < 0 ? -dx : dx;
  ay = dy < 0 ? -dy : dy;
  nd = ax < ay ? ax : ay;
  ns = (ax > ay ? ax : ay) - nd;
  if (nd > 1) {
    const int32_t step = gr->off[0][d];
    for (i = 1, c = p + step; i < nd; i++, c += step)
      if (!(gr->moves[c] >> d & 1u)) return -1;
  }
  if (ns > 0) {
    x = px + (dx > 0 ? nd : -nd);
    y = py + (dy > 0 ? nd : -nd);
    if (ax > ay) { /* along the goal's row */
      const uint64_t *row = gr->rows + (size_t)y * (size_t)gr->rs;
      if (!(dx > 0 ? line_open(row, x + 1, gx) : line_open(row, gx, x - 1))) return -1;
    } else {
      const uint64_t *col = gr->cols + (size_t)x * (size_t)gr->cs;
      if (!(dy > 0 ? line_open(col, y + 1, gy) : line_open(col, gy, y - 1))) return -1;
    }
  }
  return nd * ASTAR_GRID_DIAG + ns;
}

#endif
