/*
** jps.c -- jump point search on uniform-cost grids (Harabor & Grastien:
** online pruning, AAAI 2011; block-based scanning and no corner cutting,
** ICAPS 2014), run by engine.h's loop so budgets, time slices, stop modes,
** partial paths, traces and callback heuristics behave as under A*.
**
** An expansion does not relax the 8 neighbours: it scans, from the expanded
** cell, the straight and diagonal runs that an optimal path may take, and
** relaxes only the cells where such a path may have to turn (jump points)
** and the goal.  Straight runs are scanned 64 cells at a time in the grid's
** bit sets of open cells (rows for east/west, columns for north/south): a
** run stops at a blocked cell (a dead end: nothing to relax) or at a cell
** whose side neighbour is open while the one behind it is blocked (a forced
** neighbour: a jump point).  8-connected (rule no_corner_cutting): a
** diagonal run steps cell by cell and scans both straight directions from
** each cell; what they find is relaxed directly (the diagonal cell itself
** is no node), so a jump point's parent may be a diagonal then a straight
** run away.  4-connected (rule never): a vertical run stops where a
** horizontal scan finds something.
**
** Node state: parent[v] holds the internal id of v's parent jump point
** (-1 at the start), so the run between them is known from the geometry:
** diagonal first, then straight.  Every cost is a sum of unit and
** ASTAR_GRID_DIAG steps, exact in a double, so the cost of a jump is the
** cost of its steps in any order: paths cost what A*'s cost, to the bit.
*/
#include <string.h>

#include "lattice.h"

#define CGRID(t) ((const astar_grid *)(t))

/* E, W, S, N, SE, NE, SW, NW (grid.c's order) */
static const int jdx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
static const int jdy[8] = {0, 0, 1, -1, 1, -1, 1, -1};

/* ------------------------------------------------------------------------ */
/* node state: the few accessors the search reads and writes here            */
/* ------------------------------------------------------------------------ */

ASTAR_INLINE double node_g(const astar_search *s, int32_t v) { return node_at(s, v)->g; }
ASTAR_INLINE int32_t node_parent(const astar_search *s, int32_t v) { return *parent_at(s, v); }

/* ------------------------------------------------------------------------ */
/* bit scans                                                                  */
/* ------------------------------------------------------------------------ */

#if defined(__GNUC__)
ASTAR_INLINE int low_bit(uint64_t x) { return __builtin_ctzll(x); }
ASTAR_INLINE int high_bit(uint64_t x) { return 63 - __builtin_clzll(x); }
#else
ASTAR_INLINE int low_bit(uint64_t x) {
  int i = 0;
  while (!(x & 1)) x >>= 1, i++;
  return i;
}
ASTAR_INLINE int high_bit(uint64_t x) {
  int i = 63;
  while (!(x >> 63)) x <<= 1, i--;
  return i;
}
#endif

/*
** A line of cells (a row, or a column) and its two neighbour lines, as bit
** sets of open cells, scanned from position i (exclusive) toward higher
** positions: the first position j where the run stops, *dead set when j is
** blocked (the run ended at j - 1) rather than a jump point (j open with a
** forced neighbour: a side cell open whose predecessor on its line is
** blocked).  The line ends in a blocked border cell, so every scan stops.
*/
ASTAR_INLINE int32_t scan_up(const uint64_t *m, const uint64_t *a, const uint64_t *b,
                             int32_t i, int *dead) {
  size_t k = (size_t)i >> 6;
  uint64_t pa = k ? a[k - 1] >> 63 : 0, pb = k ? b[k - 1] >> 63 : 0;
  uint64_t first = (i & 63) == 63 ? 0 : ~(uint64_t)0 << ((i & 63) + 1);
  for (;; k++, first = ~(uint64_t)0) {
    uint64_t aw = a[k], bw = b[k], open = m[k];
    uint64_t stop = ((aw & ~((aw << 1) | pa)) | (bw & ~((bw << 1) | pb)) | ~open) & first;
    if (stop) {
      int j = low_bit(stop);
      *dead = !(open >> j & 1);
      return (int32_t)(k << 6) + j;
    }
    pa = aw >> 63;
    pb = bw >> 63;
  }
}

/* The same toward lower positions: the last position j < i where the run
** stops (a forced neighbour's predecessor is the next cell up). */
ASTAR_INLINE int32_t scan_down(const uint64_t *m, const uint64_t *a, const uint64_t *b,
                               size_t words, int32_t i, int *dead) {
  size_t k = (size_t)i >> 6;
  uint64_t na = k + 1 < words ? a[k + 1] << 63 : 0, nb = k + 1 < words ? b[k + 1] << 63 : 0;
  uint64_t first = ((uint64_t)1 << (i & 63)) - 1;
  for (;; k--, first = ~(uint64_t)0) {
    uint64_t aw = a[k], bw = b[k], open = m[k];
    uint64_t stop = ((aw & ~((aw >> 1) | na)) | (bw & ~((bw >> 1) | nb)) | ~open) & first;
    if (stop) {
      int j = high_bit(stop);
      *dead = !(open >> j & 1);
      return (int32_t)(k << 6) + j;
    }
    na = aw << 63;
    nb = bw << 63;
  }
}

/* The search's view of one query: the grid, the goal in padded
** coordinates (-1 when no goal may be found: partial searches toward a
** blocked cell), and the relaxation to use. */
#define JBUF 32

typedef struct jctx {
  astar_search *s;
  const astar_grid *gr;
  int32_t gx, gy;
  int plain;
  int n; /* successors waiting in q[], g[] */
  int32_t q[JBUF];
  double g[JBUF];
} jctx;

/* A context for one expansion of s (padded goal coordinates, -1 without a
** goal: distance searches). */
ASTAR_INLINE void jctx_init(jctx *J, astar_search *s, const astar_grid *gr, int plain) {
  J->s = s;
  J->gr = gr;
  J->gx = s->goal >= 0 ? (int32_t)s->gx + 1 : -1;
  J->gy = s->goal >= 0 ? (int32_t)s->gy + 1 : -1;
  J->plain = plain;
  J->n = 0;
}

/*
** The straight run from padded cell (x, y) in cardinal direction d: the
** number of steps to the first jump point, or to the goal when it comes
** first; 0 when the run ends in a wall before either.
*/
ASTAR_INLINE int32_t jump_straight(const jctx *J, int32_t x, int32_t y, int d) {
  const astar_grid *gr = J->gr;
  const uint64_t *m, *a, *b;
  int32_t pos, j, k, gd = 0;
  int dead;
  if (d < 2) {
    size_t rw = (size_t)gr->rw;
    m = gr->rows + (size_t)y * rw;
    a = m - rw;
    b = m + rw;
    pos = x;
    if (J->gy == y) gd = d == 0 ? J->gx - x : x - J->gx;
    j = d == 0 ? scan_up(m, a, b, x, &dead) : scan_down(m, a, b, rw, x, &dead);
  } else {
    size_t cw = (size_t)gr->cw;
    m = gr->cols + (size_t)x * cw;
    a = m - cw;
    b = m + cw;
    pos = y;
    if (J->gx == x) gd = d == 2 ? J->gy - y : y - J->gy;
    j = d == 2 ? scan_up(m, a, b, y, &dead) : scan_down(m, a, b, cw, y, &dead);
  }
  k = j > pos ? j - pos : pos - j;
  if (gd > 0 && gd <= k - dead) return gd; /* the goal first */
  return dead ? 0 : k;
}

/*
** Successors wait in a small buffer until the expansion's scans are done
** (or the buffer is full): each one's node state is prefetched when it is
** found, and jump points lie far apart, so the state is mostly a cache miss
** that the scans in between now hide.  flush() relaxes them from parent p.
*/
ASTAR_INLINE int flush(jctx *J, int32_t p) {
  astar_search *s = J->s;
  const astar_grid *gr = J->gr;
  int i, rc;
  for (i = 0; i < J->n; i++) {
    int32_t q = J->q[i], qy = lat_row(gr, q), qx = q - qy * gr->pw;
    int32_t ext = J->plain ? 0 : (qy - 1) * gr->w + (qx - 1);
    rc = relax_impl(s, q, ext, p, J->g[i], 0, qx - 1, qy - 1, J->plain, lat_h_plane);
    if (rc != ASTAR_OK) return rc;
  }
  J->n = 0;
  return ASTAR_OK;
}

/* Offers cell q (reached from the expanded cell p) at cost g. */
ASTAR_INLINE int offer(jctx *J, int32_t p, int32_t q, double g, int plain) {
  (void)plain;
#if defined(__GNUC__)
  if (J->s->pages[q >> ASTAR_PAGE_BITS] != NULL) /* a page not yet touched: nothing */
    __builtin_prefetch(node_at(J->s, q), 1);
#endif
  J->q[J->n] = q;
  J->g[J->n++] = g;
  return J->n == JBUF ? flush(J, p) : ASTAR_OK;
}

/* The direction of the last step from padded cell (px, py) into (x, y)
** along the jump between them: the straight leg's when there is one. */
ASTAR_INLINE int arrival(int32_t px, int32_t py, int32_t x, int32_t y) {
  int32_t ax = x > px ? x - px : px - x, ay = y > py ? y - py : py - y;
  if (ax > ay) return x > px ? 0 : 1;
  if (ay > ax) return y > py ? 2 : 3;
  return y > py ? (x > px ? 4 : 6) : (x > px ? 5 : 7);
}

/* ------------------------------------------------------------------------ */
/* 8-connected, no corner cutting                                             */
/* ------------------------------------------------------------------------ */

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

ASTAR_INLINE int expand8(astar_search *s, int32_t p, int plain) {
  jctx J;
  const astar_grid *gr = CGRID(s->topo);
  int32_t pw = gr->pw, py = lat_row(gr, p), px = p - py * pw, par = node_parent(s, p);
  double g = node_g(s, p);
  unsigned m;
  int d, rc;
  jctx_init(&J, s, gr, plain);
  if (par < 0) {
    m = 0xffu;
  } else {
    int32_t qy = lat_row(gr, par);
    m = dirs8(gr, p, arrival(par - qy * pw, qy, px, py));
  }
  m &= gr->moves[p];
  for (d = 0; d < 4; d++) {
    int32_t k;
    if (!(m >> d & 1u)) continue;
    k = jump_straight(&J, px, py, d);
    if (k && (rc = offer(&J, p, p + k * gr->off[0][d], g + k, plain)) != ASTAR_OK) return rc;
  }
  for (d = 4; d < 8; d++) {
    int32_t c = p, x = px, y = py, i = 0;
    int h = jdx[d] > 0 ? 0 : 1, v = jdy[d] > 0 ? 2 : 3;
    if (!(m >> d & 1u)) continue;
    do {
      double gc;
      int32_t k;
      c += gr->off[0][d];
      x += jdx[d];
      y += jdy[d];
      gc = g + ++i * ASTAR_GRID_DIAG;
      if (c == s->goal) {
        if ((rc = offer(&J, p, c, gc, plain)) != ASTAR_OK) return rc;
        break;
      }
      k = jump_straight(&J, x, y, h);
      if (k && (rc = offer(&J, p, c + k * gr->off[0][h], gc + k, plain)) != ASTAR_OK) return rc;
      k = jump_straight(&J, x, y, v);
      if (k && (rc = offer(&J, p, c + k * gr->off[0][v], gc + k, plain)) != ASTAR_OK) return rc;
    } while (gr->moves[c] >> d & 1u);
  }
  return flush(&J, p);
}

/* ------------------------------------------------------------------------ */
/* 4-connected                                                                */
/* ------------------------------------------------------------------------ */

/* Whether a vertical run must stop at open cell c = (x, y): a side
** neighbour's predecessor (toward either end of the row above or below)
** is blocked while the cell after it is open, or a horizontal scan from c
** finds a jump point or the goal. */
ASTAR_INLINE int turn4(const jctx *J, int32_t c, int32_t x, int32_t y) {
  const unsigned char *b = J->gr->blocked;
  int32_t pw = J->gr->pw;
  if ((!b[c - pw] && (b[c - pw - 1] || b[c - pw + 1])) ||
      (!b[c + pw] && (b[c + pw - 1] || b[c + pw + 1])))
    return 1;
  return (!b[c + 1] && jump_straight(J, x, y, 0)) || (!b[c - 1] && jump_straight(J, x, y, 1));
}

/* The vertical run from (x, y) in direction d (2 S, 3 N): steps to the first
** cell where it must stop, 0 at a wall. */
ASTAR_INLINE int32_t jump_vertical4(const jctx *J, int32_t p, int32_t x, int32_t y, int d) {
  const unsigned char *b = J->gr->blocked;
  int32_t step = J->gr->off[0][d], k = 0;
  for (;;) {
    p += step;
    y += jdy[d];
    k++;
    if (b[p]) return 0;
    if ((x == J->gx && y == J->gy) || turn4(J, p, x, y)) return k;
  }
}

/* Arrival by a horizontal step: straight on, and up or down where the cell
** behind is blocked; by a vertical step: straight on and both sides (the
** vertical run stopped here because a side run finds something). */
ASTAR_INLINE unsigned dirs4(const astar_grid *gr, int32_t p, int d) {
  const unsigned char *b = gr->blocked;
  int32_t pw = gr->pw;
  unsigned r;
  switch (d) {
    case 0:
      r = 1u << 0;
      if (b[p - pw - 1]) r |= 1u << 3;
      if (b[p + pw - 1]) r |= 1u << 2;
      return r;
    case 1:
      r = 1u << 1;
      if (b[p - pw + 1]) r |= 1u << 3;
      if (b[p + pw + 1]) r |= 1u << 2;
      return r;
    case 2: return 1u << 2 | 1u << 0 | 1u << 1;
    case 3: return 1u << 3 | 1u << 0 | 1u << 1;
    default: return 0x0fu;
  }
}

ASTAR_INLINE int expand4(astar_search *s, int32_t p, int plain) {
  jctx J;
  const astar_grid *gr = CGRID(s->topo);
  int32_t pw = gr->pw, py = lat_row(gr, p), px = p - py * pw, par = node_parent(s, p);
  double g = node_g(s, p);
  unsigned m;
  int d, rc;
  jctx_init(&J, s, gr, plain);
  if (par < 0) {
    m = 0x0fu;
  } else {
    int32_t qy = lat_row(gr, par);
    m = dirs4(gr, p, arrival(par - qy * pw, qy, px, py));
  }
  m &= gr->moves[p];
  for (d = 0; d < 4; d++) {
    int32_t k;
    if (!(m >> d & 1u)) continue;
    k = d < 2 ? jump_straight(&J, px, py, d) : jump_vertical4(&J, p, px, py, d);
    if (k && (rc = offer(&J, p, p + k * gr->off[0][d], g + k, plain)) != ASTAR_OK) return rc;
  }
  return flush(&J, p);
}

/* ------------------------------------------------------------------------ */
/* the loops and the topology operations                                      */
/* ------------------------------------------------------------------------ */

static int expand_jps(astar_search *s, int32_t p) {
  return CGRID(s->topo)->rule == ASTAR_DIAG_NEVER ? expand4(s, p, 0) : expand8(s, p, 0);
}

ASTAR_INLINE int expand_jps_plain(astar_search *s, int32_t p) {
  return CGRID(s->topo)->rule == ASTAR_DIAG_NEVER ? expand4(s, p, 1) : expand8(s, p, 1);
}

static int run_jps(astar_search *s, uint64_t n) { return search_loop(s, n, expand_jps); }
static int run_jps_plain(astar_search *s, uint64_t n) {
  return search_loop(s, n, expand_jps_plain);
}

/* Tags change costs only through the query's factors: a grid whose cells
** carry tags is uniform for a query whose factors are all 1. */
static int tags_used(const astar_grid *gr, const astar_query *q) {
  int32_t t;
  if (gr->tag == NULL || q->tag_factor == NULL) return 0;
  for (t = 1; t < q->tag_count; t++)
    if (q->tag_factor[t] != 1.0) return 1;
  return 0;
}

static const char *jps_refusal(const astar_topology *t, const astar_query *q) {
  const astar_grid *gr = CGRID(t);
  if (gr->rule == ASTAR_DIAG_ONE_OBSTACLE) return "diagonal rule one_obstacle";
  if (gr->rule == ASTAR_DIAG_ALWAYS) return "diagonal rule always";
  if (q->size > 1) return "unit size above 1";
  if (gr->cost != NULL) return "cell costs";
  if (tags_used(gr, q)) return "tag costs";
  if (q->penalty != NULL) return "penalty";
  if (q->forbid != NULL) return "forbid";
  if (q->cost_fn != NULL) return "cost callback";
  if (q->weight != 1.0) return "weight other than 1";
  return NULL;
}

/*
** The path to reached jump point v, every cell listed: each jump is a
** diagonal run then a straight one (either may be empty), walked back from
** its end.  Costs are summed forwards, step by step, as A* sums them.
*/
static int32_t jps_path(const astar_search *s, int32_t v, int32_t *nodes, int32_t *links,
                        double *cost) {
  const astar_grid *gr = CGRID(s->topo);
  int32_t pw = gr->pw, len = 1, u, i;
  double sum = 0;
  for (u = v; node_parent(s, u) >= 0; u = node_parent(s, u)) {
    int32_t a = node_parent(s, u), ay = lat_row(gr, a), uy = lat_row(gr, u);
    int32_t ddx = (u - uy * pw) - (a - ay * pw), ddy = uy - ay;
    if (ddx < 0) ddx = -ddx;
    if (ddy < 0) ddy = -ddy;
    len += ddx > ddy ? ddx : ddy;
  }
  if (nodes == NULL) return len;
  i = len - 1;
  nodes[i] = v;
  for (u = v; node_parent(s, u) >= 0; u = node_parent(s, u)) {
    int32_t a = node_parent(s, u), ay = lat_row(gr, a), uy = lat_row(gr, u);
    int32_t ax = a - ay * pw, ux = u - uy * pw, c = u;
    int32_t adx = ux > ax ? ux - ax : ax - ux, ady = uy > ay ? uy - ay : ay - uy;
    int32_t diag = adx < ady ? adx : ady, straight = (adx > ady ? adx : ady) - diag, j;
    int sd = adx > ady ? (ux > ax ? 0 : 1) : (uy > ay ? 2 : 3);
    int dd = uy > ay ? (ux > ax ? 4 : 6) : (ux > ax ? 5 : 7);
    for (j = 0; j < straight; j++) {
      c -= gr->off[0][sd];
      if (links) links[i - 1] = sd;
      nodes[--i] = c;
    }
    for (j = 0; j < diag; j++) {
      c -= gr->off[0][dd];
      if (links) links[i - 1] = dd;
      nodes[--i] = c;
    }
  }
  for (i = 1; i < len; i++) {
    int32_t ay = lat_row(gr, nodes[i - 1]), by = lat_row(gr, nodes[i]);
    sum += ay != by && nodes[i] - by * pw != nodes[i - 1] - ay * pw ? ASTAR_GRID_DIAG : 1.0;
  }
  if (cost) *cost = sum;
  return len;
}

const astar_jps_ops astar__grid_jps = {jps_refusal, run_jps, run_jps_plain, jps_path};
