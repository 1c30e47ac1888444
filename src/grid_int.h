/*
** grid_int.h -- the grid's layout, shared by grid.c (storage, rules, A*
** expansions) and jps.c (jump point search).  Private to the core.
*/
#ifndef ASTAR_GRID_INT_H
#define ASTAR_GRID_INT_H

#include "engine.h"

struct astar_grid {
  astar_topology t; /* first: the topology view of the grid */
  int32_t w, h, pw, ph;
  int diagonal;
  unsigned char *blocked; /* pw * ph; 1 blocked (the border too) */
  unsigned char *moves;   /* pw * ph; bit d: the step in direction d is
                             ** allowed by the blocked cells and the diagonal
                             ** rule (kept current by set_blocked) */
  double *cost;           /* pw * ph or NULL while every cost is 1 */
  uint16_t *tag;          /* pw * ph or NULL while every tag is 0 */
  unsigned char *clear;   /* pw * ph or NULL until a sized unit needs it:
                             ** the clearance of each cell, 0 on blocked
                             ** cells and the border (kept current by
                             ** set_blocked once built) */
  int32_t off[8];         /* padded offsets of the 8 directions */
  double inv_pw;          /* 1 / pw: rows without a division */
  /* Open cells as bit sets, for jump point search (kept current by
  ** set_blocked like `moves`): bit x of row y and bit y of column x (padded
  ** coordinates) is set when the cell is open.  rw, cw: 64-bit words per
  ** row, per column; the bits past the end of a line are 0 (blocked). */
  uint64_t *rows, *cols;
  int32_t rw, cw;
  /* the change log (astar_grid_track_changes): a ring of the last log_cap
  ** changes, each the version it made and the cell (external id) */
  struct grid_change {
    uint32_t version;
    int32_t cell;
  } * log;
  size_t log_cap, log_n; /* log_n: changes written since tracking began */
};

/* Grid row of a padded index without a division per call: the reciprocal
** is exact enough that one correction step fixes rounding at multiples. */
ASTAR_INLINE int32_t grid_row(const astar_grid *gr, int32_t p) {
  int32_t pw = gr->pw, y = (int32_t)((double)p * gr->inv_pw);
  if ((y + 1) * pw <= p) y++;
  else if (y * pw > p) y--;
  return y;
}

/* The built-in estimate at cell (x, y): 2-D, small coordinates, no clamp.
** Octile uses the grid's own diagonal cost, so it is exact and consistent. */
ASTAR_INLINE double grid_h(const astar_search *s, int32_t v, double x, double y) {
  double ax = fabs(x - s->gx), ay = fabs(y - s->gy);
  (void)v;
  switch (s->q.heuristic) { /* builtin_h's formulas in 2-D: the hot case first */
    case ASTAR_H_OCTILE: return ax < ay ? s->octile_k * ax + ay : s->octile_k * ay + ax;
    case ASTAR_H_ZERO: return 0.0;
    case ASTAR_H_MANHATTAN: return ax + ay;
    case ASTAR_H_CHEBYSHEV: return ax > ay ? ax : ay;
    case ASTAR_H_EUCLIDEAN: return sqrt(ax * ax + ay * ay);
    default: return builtin_h(s, x, y, 0.0);
  }
}

/* jump point search (jps.c): the grid's topology operations for it */
const char *astar__grid_jps_refusal(const astar_topology *t, const astar_query *q);
int astar__grid_run_jps(astar_search *s, uint64_t n);
int astar__grid_run_jps_plain(astar_search *s, uint64_t n);
int32_t astar__grid_jps_path(const astar_search *s, int32_t v, int32_t *nodes,
                             int32_t *links, double *cost);

#endif
