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
** neighbour: a jump point).  The grid keeps those cells as each line's stop
** bits (stopbits.c), so a scan reads one word of them a step, beside the
** open bits of the same cells (stopbits.h).  8-connected (rule
** no_corner_cutting): a diagonal run steps cell by cell and scans both
** straight directions from each cell; what they find is relaxed directly
** (the diagonal cell itself is no node), so a jump point's parent may be a
** diagonal then a straight run away.  4-connected (rule never): a vertical
** run stops where a horizontal scan finds something.
**
** Node state: parent[v] holds the internal id of v's parent jump point
** (-1 at the start), so the run between them is known from the geometry:
** diagonal first, then straight.  Every cost is a sum of unit and
** ASTAR_GRID_DIAG steps, exact in a double, so the cost of a jump is the
** cost of its steps in any order: paths cost what A*'s cost, to the bit.
*/
#include <string.h>

#include "jps.h"
#include "jpsunits.h"
#include "stopbits.h"

#define CGRID(t) ((const astar_grid *)(t))

const int astar__jps_sparse = ASTAR_ENGINE_SPARSE; /* see jps.h */

/* ------------------------------------------------------------------------ */
/* node state: the few accessors the search reads and writes here            */
/* ------------------------------------------------------------------------ */

ASTAR_INLINE double node_g(const astar_search *s, int32_t v) { return node_at(s, v)->g; }
ASTAR_INLINE int32_t node_parent(const astar_search *s, int32_t v) { return *parent_at(s, v); }

/* ------------------------------------------------------------------------ */
/* bit scans of three lines (units' bit sets; the grid's own: stopbits.h)    */
/* ------------------------------------------------------------------------ */

/* Windows that start at the cell (warthog's trick, little-endian): the 8
** bytes from the byte holding cell i put i and 56+ cells past (or before) it
** in one word wherever i sits in its word; read only inside the line. */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define JPS_WINDOWS 1
ASTAR_INLINE uint64_t window_at(const uint64_t *m, size_t byte) {
  uint64_t w;
  memcpy(&w, (const unsigned char *)m + byte, sizeof w);
  return w;
}
#endif

/*
** A line of cells (a row, or a column; words long) and its two neighbour
** lines, as bit sets of open cells, scanned from position i (exclusive)
** toward higher positions: the first position j where the run stops, *dead
** set when j is blocked (the run ended at j - 1) rather than a jump point (j
** open with a forced neighbour: a side cell open whose predecessor on its
** line is blocked).  The line ends in a blocked border cell, so every scan
** stops.
*/
ASTAR_INLINE int32_t scan_up(const uint64_t *m, const uint64_t *a, const uint64_t *b,
                             size_t words, int32_t i, int *dead) {
  size_t k;
  uint64_t pa = 0, pb = 0, first; /* the first word's bit 0 is never read (first) */
  (void)words;
#ifdef JPS_WINDOWS
  size_t byte = (size_t)i >> 3;
  if (byte + 8 <= words * 8) { /* cells byte * 8 on, cell i at bit i & 7 */
    uint64_t aw = window_at(a, byte), bw = window_at(b, byte), open = window_at(m, byte);
    uint64_t stop = ((aw & ~(aw << 1)) | (bw & ~(bw << 1)) | ~open) & (~(uint64_t)1 << (i & 7));
    if (stop) {
      int j = low_bit(stop);
      *dead = !(open >> j & 1);
      return (int32_t)(byte * 8) + j;
    }
    i = (int32_t)(byte * 8) + 63; /* the last cell seen: the words go on after it */
  }
#endif
  k = (size_t)i >> 6;
  first = ~(uint64_t)1 << (i & 63); /* the bits past i's (none at 63) */
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
                               int32_t i, int *dead) {
  size_t k;
  uint64_t na = 0, nb = 0, first; /* the first word's bit 63 is never read (first) */
#ifdef JPS_WINDOWS
  size_t byte = (size_t)i >> 3;
  if (byte >= 7) { /* cells (byte - 7) * 8 on, cell i at bit 56 + (i & 7) */
    uint64_t aw = window_at(a, byte - 7), bw = window_at(b, byte - 7), open = window_at(m, byte - 7);
    uint64_t stop = ((aw & ~(aw >> 1)) | (bw & ~(bw >> 1)) | ~open) &
                    (((uint64_t)1 << (56 + (i & 7))) - 1);
    if (stop) {
      int j = high_bit(stop);
      *dead = !(open >> j & 1);
      return (int32_t)((byte - 7) * 8) + j;
    }
    i = (int32_t)((byte - 7) * 8); /* the last cell seen */
  }
#endif
  k = (size_t)i >> 6;
  first = ((uint64_t)1 << (i & 63)) - 1;
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

/* scan_up for bounded scans: no position past lim is reported; a run still
** open there is cut at lim (*dead 2: the cells up to lim are open and none
** stops the run). */
ASTAR_INLINE int32_t scan_up_lim(const uint64_t *m, const uint64_t *a, const uint64_t *b,
                                 int32_t i, int *dead, int32_t lim) {
  size_t k = (size_t)i >> 6;
  uint64_t pa = 0, pb = 0;                   /* the first word's bit 0 is never read (first) */
  uint64_t first = ~(uint64_t)1 << (i & 63); /* the bits past i's (none at 63) */
  for (;; k++, first = ~(uint64_t)0) {
    uint64_t aw = a[k], bw = b[k], open = m[k];
    uint64_t stop = ((aw & ~((aw << 1) | pa)) | (bw & ~((bw << 1) | pb)) | ~open) & first;
    if (stop) {
      int32_t j = (int32_t)(k << 6) + low_bit(stop);
      if (j > lim) break;
      *dead = !(open >> (j & 63) & 1);
      return j;
    }
    if ((int32_t)(k << 6) + 63 >= lim) break;
    pa = aw >> 63;
    pb = bw >> 63;
  }
  *dead = 2;
  return lim;
}

/* scan_down for bounded scans: none below lim. */
ASTAR_INLINE int32_t scan_down_lim(const uint64_t *m, const uint64_t *a, const uint64_t *b,
                                   size_t words, int32_t i, int *dead, int32_t lim) {
  size_t k = (size_t)i >> 6;
  uint64_t na = 0, nb = 0; /* the first word's bit 63 is never read (first) */
  (void)words;
  uint64_t first = ((uint64_t)1 << (i & 63)) - 1;
  for (;; k--, first = ~(uint64_t)0) {
    uint64_t aw = a[k], bw = b[k], open = m[k];
    uint64_t stop = ((aw & ~((aw >> 1) | na)) | (bw & ~((bw >> 1) | nb)) | ~open) & first;
    if (stop) {
      int32_t j = (int32_t)(k << 6) + high_bit(stop);
      if (j < lim) break;
      *dead = !(open >> (j & 63) & 1);
      return j;
    }
    if ((int32_t)(k << 6) <= lim) break;
    na = aw << 63;
    nb = bw << 63;
  }
  *dead = 2;
  return lim;
}

/* The search's view of one expansion: the grid, the goal in padded
** coordinates (-1 when no goal may be found: partial searches toward a
** blocked cell), and the successors waiting to be relaxed with their
** coordinates (found by the scans, so no row is computed from an id). */
#define JBUF 32

/* Scans are bounded (doc/design.md, "Jump point search"): a run may go on
** while its cells' f = g + octile stays within JPS_SLACK of the expanded
** cell's; past that it is cut, and the cell where it was cut becomes a
** node of its own (expanded when, if ever, its f is the smallest) that
** goes on with the run.  Cuts are checked only where a straight scan
** passes JPS_WINDOW cells, and on diagonal runs every JPS_WINDOW steps, so
** the runs of most maps never pay for it. */
#define JPS_SLACK 64.0
#define JPS_WINDOW 256

typedef struct jctx {
  astar_search *s;
  const astar_grid *gr;
  int32_t gx, gy;
  int plain;
  double fb; /* the f bound of this expansion's scans */
  int n;     /* successors waiting in q[], x[], y[], g[] */
  int32_t q[JBUF], x[JBUF], y[JBUF];
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

  J->fb = HUGE_VAL;
  J->n = 0;
}

/* The octile distance of a dx, dy apart (the grid's own diagonal). */
ASTAR_INLINE double octile(int32_t dx, int32_t dy) {
  double ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
  return ax < ay ? (ASTAR_GRID_DIAG - 1) * ax + ay : (ASTAR_GRID_DIAG - 1) * ay + ax;
}

/*
** How far a straight run may go within the bound: from a cell reached at
** cost g, u cells short of the goal along the run (negative: past it) and
** dd across, the largest t with g + t + octile(u - t, dd) <= fb.  That sum
** grows with t, piecewise linearly: flat while the run closes in on the
** goal's line faster than it nears the goal across, then by 1 - k, 1 + k
** and 2 per step (k = ASTAR_GRID_DIAG - 1).
*/
ASTAR_INLINE int32_t run_limit(double fb, double g, int32_t u, int32_t dd) {
  const double k = ASTAR_GRID_DIAG - 1;
  double r = fb - g, t0 = 0, f0, t1;
  if (dd < 0) dd = -dd;
  if (!(r < 1e9)) return INT32_MAX / 2;
  f0 = octile(u, dd);
  if (f0 > r) return 0;
  if (u > dd) { /* flat until u - t = dd */
    t0 = u - dd;
    f0 = t0 + (1 + k) * dd;
  }
  if (u > 0 && t0 < u) { /* slope 1 - k until the goal's line */
    t1 = t0 + (r - f0) * (1 / (1 - k));
    if (t1 < u) return (int32_t)t1;
    f0 += (u - t0) * (1 - k);
    t0 = u;
  }
  if (t0 < u + dd) { /* slope 1 + k until dd past it */
    t1 = t0 + (r - f0) * (1 / (1 + k));
    if (t1 < u + dd) return (int32_t)t1;
    f0 += (u + dd - t0) * (1 + k);
    t0 = u + dd;
  }
  t1 = t0 + (r - f0) * 0.5;
  return t1 < INT32_MAX / 2 ? (int32_t)t1 : INT32_MAX / 2;
}

/*
** A straight run along line m (a row or a column of the grid's bit sets,
** with its stop bits: stopbits.h) from position pos (reached at cost g),
** toward higher positions (up) or lower ones: the number of steps to the
** first jump point, or to the goal when it lies on the line (at position
** goal, else -1) and comes first; 0 when the run ends in a wall before
** either; -1 - s when the bound cut it s steps on (u, dd: the goal's
** distance along the run and across, for run_limit).
*/
/* The part of a bounded scan past its first JPS_WINDOW cells, from edge:
** how far the bound lets it go (run_limit), then on to there.  Seldom
** reached, so out of line. */
#if defined(__GNUC__)
__attribute__((noinline))
#endif
static int32_t
scan_rest(const jctx *J, const uint64_t *m, int32_t pos, int32_t edge, int up, double g, int32_t u, int32_t dd, int *dead) {
  int32_t t = run_limit(J->fb, g, u, dd), lim;
  if (t <= JPS_WINDOW) return edge; /* *dead is still 2: cut at the edge */
  lim = up ? (t > INT32_MAX / 2 - pos ? INT32_MAX : pos + t) : pos - t;
  return up ? stop_up_lim(m, edge, dead, lim) : stop_down_lim(m, edge, dead, lim);
}

ASTAR_INLINE int32_t jump_line(const jctx *J, const uint64_t *m, int32_t pos, int32_t goal, int up, double g, int32_t u, int32_t dd,
                               int bounded) {
  int32_t j, k, gd, edge;
  int dead;
  if (bounded) {
    edge = up ? pos + JPS_WINDOW : pos - JPS_WINDOW;
    j = up ? stop_up_lim(m, pos, &dead, edge) : stop_down_lim(m, pos, &dead, edge);
    if (ASTAR_UNLIKELY(dead == 2)) /* a long run: bounded */
      j = scan_rest(J, m, pos, edge, up, g, u, dd, &dead);
  } else {
    j = up ? stop_up(m, pos, &dead) : stop_down(m, pos, &dead);
  }
  k = up ? j - pos : pos - j;
  gd = goal < 0 ? 0 : up ? goal - pos
                         : pos - goal;
  if (gd > 0 && gd <= k - (dead == 1)) return gd; /* the goal first */
  if (bounded && dead == 2) return -k - 1;        /* cut: -1 - steps */
  return dead ? 0 : k;
}

/* The straight run from padded cell (x, y), reached at cost g, in cardinal
** direction d (see jump_line). */
ASTAR_INLINE int32_t jump_straight(const jctx *J, int32_t x, int32_t y, int d, double g,
                                   int bounded) {
  const astar_grid *gr = J->gr;
  if (d < 2)
    return jump_line(J, gr->rows + (size_t)y * (size_t)gr->rs, x,
                     J->gy == y ? J->gx : -1, d == 0, g, d == 0 ? J->gx - x : x - J->gx,
                     J->gy - y, bounded);
  return jump_line(J, gr->cols + (size_t)x * (size_t)gr->cs, y,
                   J->gx == x ? J->gy : -1, d == 2, g, d == 2 ? J->gy - y : y - J->gy,
                   J->gx - x, bounded);
}

/*
** Successors wait in a small buffer until the expansion's scans are done
** (or the buffer is full): each one's node state is prefetched when it is
** found, and jump points lie far apart, so the state is mostly a cache miss
** that the scans in between now hide.  flush() relaxes them from parent p;
** plain is the caller's constant (J->plain would be read from memory after
** flush_full's call, and every test of it kept).
*/
ASTAR_INLINE int flush(jctx *J, int32_t p, int plain) {
  astar_search *s = J->s;
  int32_t w = J->gr->w;
  int i, rc;
  for (i = 0; i < J->n; i++) {
    int32_t qx = J->x[i] - 1, qy = J->y[i] - 1, ext = plain ? 0 : qy * w + qx;
    rc = relax_impl(s, J->q[i], ext, p, J->g[i], 0, qx, qy, plain, lat_h_plane);
    if (rc != ASTAR_OK) return rc;
  }
  J->n = 0;
  return ASTAR_OK;
}

/* flush() where the buffer fills up: seldom, so out of line (the scans
** that offer are inlined many times over; relax_impl is not, with it). */
#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static int
flush_full(jctx *J, int32_t p) {
  return J->plain ? flush(J, p, 1) : flush(J, p, 0);
}

/* Offers cell q = (x, y) (reached from the expanded cell p) at cost g. */
ASTAR_INLINE int offer(jctx *J, int32_t p, int32_t q, int32_t x, int32_t y, double g) {
  node_prefetch(J->s, q);
  J->q[J->n] = q;
  J->x[J->n] = x;
  J->y[J->n] = y;
  J->g[J->n++] = g;
  return J->n == JBUF ? flush_full(J, p) : ASTAR_OK;
}

/*
** The goal-visible shortcut (warthog's "jump_target"): when the goal lies in
** a direction the expansion of p = (px, py) scans (mask m) and the run
** toward it -- diagonal first, then straight, the jumps' own shape -- is
** unobstructed, that run's cost is the octile distance.  When p's estimate
** is that distance too (the built-in octile, or any estimate that is), the
** goal's f is p's f, the smallest open, so the goal is reached optimally
** through p and p's other scans cannot matter: the caller offers the goal
** alone.  Returns the run's cost, or -1.
*/
ASTAR_INLINE double goal_run(const jctx *J, int32_t p, int32_t px, int32_t py, unsigned m) {
  return J->gx < 0 ? -1 : jps_goal_run(J->gr, p, px, py, J->gx, J->gy, m);
}

/* Whether the shortcut's run of cost `run` from p = (px, py), reached at
** cost g, decides the search: p's estimate is at least the run's cost and
** the goal's is 0 (then the goal's f is at most p's, the smallest).  The
** built-in octile is exactly the run's cost; other estimates are compared
** (a callback's from its cache, the goal's asked once by relaxing it). */
ASTAR_INLINE int goal_decides(jctx *J, int32_t p, int32_t px, int32_t py, double run) {
  astar_search *s = J->s;
  double hp;
  if (s->q.heuristic == ASTAR_H_OCTILE) return 1;
  hp = s->q.heuristic == ASTAR_H_CALLBACK ? *hc_at(s, p) : lat_h_plane(s, p, px - 1, py - 1);
  if (!(hp >= run - 1e-9 * run)) return 0;
  if (s->q.heuristic != ASTAR_H_CALLBACK) return lat_h_plane(s, s->goal, J->gx - 1, J->gy - 1) == 0;
  return 1; /* the callback's h(goal) is checked once the goal is relaxed */
}

/* ------------------------------------------------------------------------ */
/* 8-connected, no corner cutting                                             */
/* ------------------------------------------------------------------------ */

/*
** The diagonal run from p = (px, py), reached at cost g, in direction d
** (a constant at each call: the compiler unrolls one loop per diagonal).
** It steps cell by cell and scans both straight directions from each cell
** whose move mask allows the first step (a blocked neighbour ends the run
** at once); what they find is offered directly.  The run keeps a pointer
** to the stop word holding its cell in the cell's row and in its column
** (a step moves each by a line, and by a word where the cell crosses into
** the next one), so a scan starts from it and the cell's bit with no
** position turned into a word.  A step off the goal's row and column (all
** but one or two of a run) does no goal test.  Where the bound cuts one of
** the scans, the diagonal cell itself is offered and the run ends: that
** node redoes its scans, under its own bound, when it is expanded.
*/
ASTAR_INLINE int diag_run(jctx *J, int32_t p, int32_t px, int32_t py, double g, int d,
                          int bounded) {
  const astar_grid *gr = J->gr;
  const int h = jdx[d] > 0 ? 0 : 1, v = jdy[d] > 0 ? 2 : 3;
  const int32_t sx = jdx[d], sy = jdy[d], step = gr->off[0][d];
  const ptrdiff_t rs = sy * (ptrdiff_t)gr->rs, cs = sx * (ptrdiff_t)gr->cs; /* a step's */
  const size_t hw = h == 0 ? LAT_UP_W(0) : LAT_DOWN_W(0), vw = v == 2 ? LAT_UP_W(0) : LAT_DOWN_W(0);
  const int32_t goal = J->s->goal, hs = gr->off[0][h], vs = gr->off[0][v], gx = J->gx, gy = J->gy;
  /* the stop words holding the cell in its row (hw) and column (vw) */
  const uint64_t *rw = stop_group(gr->rows, gr->rs, py, px) + hw;
  const uint64_t *cw = stop_group(gr->cols, gr->cs, px, py) + vw;
  const unsigned char *const moves = gr->moves, *mp = moves + p; /* c's move mask */
  int32_t c, x = px, y = py, i = 0;
  unsigned mv;
  int rc;
  do {
    double gc;
    int32_t kh = 0, kv = 0;
    mp += step;
    x += sx;
    y += sy;
    rw += rs;
    cw += cs;
    if ((x & 63) == (sx > 0 ? 0 : 63)) rw += LAT_GROUP * sx; /* into the next word */
    if ((y & 63) == (sy > 0 ? 0 : 63)) cw += LAT_GROUP * sy;
    gc = g += ASTAR_GRID_DIAG; /* step by step, as A* sums (no int-to-double per step) */
    ++i;
    if (!bounded && ASTAR_LIKELY(y != gy && x != gx)) { /* off the goal's lines: no goal checks */
      mv = *mp;
      if ((mv >> h & 1u) && (kh = h == 0 ? stop_steps_up(rw, x & 63) : stop_steps_down(rw, x & 63)) != 0 &&
          (rc = offer(J, p, (int32_t)(mp - moves) + kh * hs, x + kh * sx, y, gc + kh)) != ASTAR_OK)
        return rc; /* offered at once: its state is prefetched during the next scan */
      if ((mv >> v & 1u) && (kv = v == 2 ? stop_steps_up(cw, y & 63) : stop_steps_down(cw, y & 63)) != 0 &&
          (rc = offer(J, p, (int32_t)(mp - moves) + kv * vs, x, y + kv * sy, gc + kv)) != ASTAR_OK)
        return rc;
      continue;
    }
    c = (int32_t)(mp - moves);
    if (c == goal) return offer(J, p, c, x, y, gc);
    if (bounded && ASTAR_UNLIKELY(i % JPS_WINDOW == 0) && gc + octile(gx - x, gy - y) > J->fb)
      return offer(J, p, c, x, y, gc); /* cut: c goes on */
    mv = *mp;
    if (mv >> h & 1u) /* the line's first word from the cursor */
      kh = jump_line(J, rw - hw - LAT_UP_W(x >> 6), x, gy == y ? gx : -1, h == 0, gc, sx * (gx - x),
                     gy - y, bounded);
    if (!bounded && kh && (rc = offer(J, p, c + kh * hs, x + kh * sx, y, gc + kh)) != ASTAR_OK)
      return rc;
    if (mv >> v & 1u)
      kv = jump_line(J, cw - vw - LAT_UP_W(y >> 6), y, gx == x ? gy : -1, v == 2, gc, sy * (gy - y),
                     gx - x, bounded);
    if (bounded) {
      if ((kh | kv) < 0) return offer(J, p, c, x, y, gc); /* cut: c goes on */
      if (kh && (rc = offer(J, p, c + kh * hs, x + kh * sx, y, gc + kh)) != ASTAR_OK) return rc;
    }
    if (kv && (rc = offer(J, p, c + kv * vs, x, y + kv * sy, gc + kv)) != ASTAR_OK) return rc;
  } while (mv >> d & 1u);
  return ASTAR_OK;
}

/* Whether padded cell (x, y) is blocked, from the row bit sets (the words
** the expanded cell's scans read next; blocked bytes lie a row apart). */
ASTAR_INLINE unsigned shut_at(const astar_grid *gr, int32_t x, int32_t y) {
  const uint64_t *r = gr->rows + (size_t)y * (size_t)gr->rs;
  return ~(unsigned)(r[LAT_OPEN_W(x >> 6)] >> (x & 63)) & 1u;
}

/* jps.h's dirs8 at padded cell (x, y), its corners read by shut_at (the
** diagonals: SE 4, NE 5, SW 6, NW 7, that is 4 + 2 * west + north). */
ASTAR_INLINE unsigned dirs8_rows(const astar_grid *gr, int32_t x, int32_t y, int d) {
  unsigned r = 1u << d;
  if (d < 2) { /* E, W: the corners above and below the cell behind */
    if (shut_at(gr, x - jdx[d], y - 1)) r |= 1u << 3 | 1u << (5 + 2 * d);
    if (shut_at(gr, x - jdx[d], y + 1)) r |= 1u << 2 | 1u << (4 + 2 * d);
    return r;
  }
  if (d < 4) { /* S, N: the corners east and west of the cell behind */
    if (shut_at(gr, x + 1, y - jdy[d])) r |= 1u << 0 | 1u << (4 + (d == 3));
    if (shut_at(gr, x - 1, y - jdy[d])) r |= 1u << 1 | 1u << (6 + (d == 3));
    return r;
  }
  return dirs8(gr, 0, d); /* diagonal arrivals read no cell */
}

/* expand8's straight run from p = (px, py) in direction d (a constant). */
ASTAR_INLINE int straight8(jctx *J, int32_t p, int32_t px, int32_t py, double g, int d, int bounded) {
  const astar_grid *gr = J->gr;
  int32_t k;
  if (!bounded && (d < 2 ? py != J->gy : px != J->gx)) { /* off the goal's line */
    const uint64_t *w =
        d < 2 ? stop_group(gr->rows, gr->rs, py, px) : stop_group(gr->cols, gr->cs, px, py);
    k = d == 0   ? stop_steps_up(w + LAT_UP_W(0), px & 63)
        : d == 1 ? stop_steps_down(w + LAT_DOWN_W(0), px & 63)
        : d == 2 ? stop_steps_up(w + LAT_UP_W(0), py & 63)
                 : stop_steps_down(w + LAT_DOWN_W(0), py & 63);
  } else {
    k = jump_straight(J, px, py, d, g, bounded);
    if (bounded && k < 0) k = -k - 1; /* cut: the cell there goes on */
  }
  return k ? offer(J, p, p + k * J->gr->off[0][d], px + k * jdx[d], py + k * jdy[d], g + k) : ASTAR_OK;
}

ASTAR_INLINE int expand8(astar_search *s, int32_t p, int plain, int bounded) {
  jctx J;
  const astar_grid *gr = CGRID(s->topo);
  int32_t pw = gr->pw, py = p / pw, px = p - py * pw, par = node_parent(s, p);
  double g = node_g(s, p), run;
  unsigned m;
  int rc;
  jctx_init(&J, s, gr, plain);
  bounded = bounded && J.gx >= 0;
  if (par < 0) {
    m = 0xffu;
  } else {
    int32_t qy = par / pw;
    m = dirs8_rows(gr, px, py, arrival(par - qy * pw, qy, px, py));
  }
  m &= gr->moves[p];
  if ((run = goal_run(&J, p, px, py, m)) >= 0 && goal_decides(&J, p, px, py, run)) {
    if ((rc = offer(&J, p, s->goal, J.gx, J.gy, g + run)) != ASTAR_OK ||
        (rc = flush(&J, p, plain)) != ASTAR_OK)
      return rc;
    if (s->q.heuristic != ASTAR_H_CALLBACK || (node_seen(s, s->goal) && *hc_at(s, s->goal) == 0))
      return ASTAR_OK;
  }
  if (bounded) {
    double span = octile((int32_t)(s->gx - s->sx), (int32_t)(s->gy - s->sy));
    J.fb = g + octile(J.gx - px, J.gy - py) + (span > JPS_SLACK ? span : JPS_SLACK);
  }
  if ((m & 1u) && (rc = straight8(&J, p, px, py, g, 0, bounded)) != ASTAR_OK) return rc;
  if ((m >> 1 & 1u) && (rc = straight8(&J, p, px, py, g, 1, bounded)) != ASTAR_OK) return rc;
  if ((m >> 2 & 1u) && (rc = straight8(&J, p, px, py, g, 2, bounded)) != ASTAR_OK) return rc;
  if ((m >> 3 & 1u) && (rc = straight8(&J, p, px, py, g, 3, bounded)) != ASTAR_OK) return rc;
  if ((m >> 4 & 1u) && (rc = diag_run(&J, p, px, py, g, 4, bounded)) != ASTAR_OK) return rc;
  if ((m >> 5 & 1u) && (rc = diag_run(&J, p, px, py, g, 5, bounded)) != ASTAR_OK) return rc;
  if ((m >> 6 & 1u) && (rc = diag_run(&J, p, px, py, g, 6, bounded)) != ASTAR_OK) return rc;
  if ((m >> 7 & 1u) && (rc = diag_run(&J, p, px, py, g, 7, bounded)) != ASTAR_OK) return rc;
  return flush(&J, p, plain);
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
  return (!b[c + 1] && jump_straight(J, x, y, 0, 0, 0)) || (!b[c - 1] && jump_straight(J, x, y, 1, 0, 0));
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
  int32_t pw = gr->pw, py = p / pw, px = p - py * pw, par = node_parent(s, p);
  double g = node_g(s, p);
  unsigned m;
  int d, rc;
  jctx_init(&J, s, gr, plain);
  if (par < 0) {
    m = 0x0fu;
  } else {
    int32_t qy = par / pw;
    m = dirs4(gr, p, arrival(par - qy * pw, qy, px, py));
  }
  m &= gr->moves[p];
  for (d = 0; d < 4; d++) {
    int32_t k;
    if (!(m >> d & 1u)) continue;
    k = d < 2 ? jump_straight(&J, px, py, d, g, 0) : jump_vertical4(&J, p, px, py, d);
    if (k && (rc = offer(&J, p, p + k * gr->off[0][d], px + k * jdx[d], py + k * jdy[d],
                         g + k)) != ASTAR_OK)
      return rc;
  }
  return flush(&J, p, plain);
}

/* ------------------------------------------------------------------------ */
/* units of size k (8-connected, no corner cutting)                          */
/* ------------------------------------------------------------------------ */

/*
** A unit of size k moves by the one-cell rules with "open" read as "the
** unit fits there" (lattice.h: clearance >= k), so its search is jump point
** search on that derived grid: straight runs are scanned in the derived
** grid's bit sets (jpsunits.c: gr->ubits[k], built when the query began)
** as size 1's are in the grid's own, and diagonal runs read their moves
** there; the expanded cell's moves and forced turns read the clearance
** layer.
*/

/* An expansion's work bound (expand_unit): cells a scan passes, a diagonal
** step 4. */
#define UNIT_WORK 8192
#define UNIT_DIAG_WORK 4

/* The straight run from padded cell (x, y) in cardinal direction d on the
** unit's bit sets (rows, then columns): steps to the first jump point or
** the goal, 0 at a wall; the cells passed are added to *work.  Bounded, a
** run still going when *work reaches UNIT_WORK (one step at least) is cut
** there (*cut set: the cell there goes on). */
ASTAR_INLINE int32_t unit_straight(const jctx *J, const uint64_t *bits, int32_t x, int32_t y,
                                   int d, int32_t *work, int *cut, int bounded) {
  const astar_grid *gr = J->gr;
  const int up = d == 0 || d == 2;
  const int32_t room = *work < UNIT_WORK - 1 ? UNIT_WORK - *work : 1;
  const uint64_t *m;
  size_t words;
  int32_t pos, goal, j, t, gd;
  int dead;
  if (d < 2) {
    words = (size_t)gr->rw;
    m = bits + (size_t)y * words;
    pos = x;
    goal = J->gy == y ? J->gx : -1;
  } else {
    words = (size_t)gr->cw;
    m = bits + (size_t)gr->ph * (size_t)gr->rw + (size_t)x * words;
    pos = y;
    goal = J->gx == x ? J->gy : -1;
  }
  if (bounded)
    j = up ? scan_up_lim(m, m - words, m + words, pos, &dead, pos + room)
           : scan_down_lim(m, m - words, m + words, words, pos, &dead, pos - room);
  else
    j = up ? scan_up(m, m - words, m + words, words, pos, &dead)
           : scan_down(m, m - words, m + words, pos, &dead);
  t = up ? j - pos : pos - j;
  *work += t;
  gd = goal < 0 ? 0 : up ? goal - pos
                         : pos - goal;
  if (gd > 0 && gd <= t - (dead == 1)) return gd; /* the goal first */
  if (dead == 2) *cut = 1;                        /* cut: the cell there goes on */
  return dead == 1 ? 0 : t;
}

/* Bounded (grids over JPS_BOUNDED cells), an expansion reads at most
** UNIT_WORK cells: a straight run that reaches it is cut, the cell there a
** node that goes on; a diagonal run offers its cell, which redoes its scans
** when expanded (canonical runs: nothing lost): timed steps stop in time. */
ASTAR_INLINE int expand_unit(astar_search *s, int32_t p, int bounded) {
  jctx J;
  const astar_grid *gr = CGRID(s->topo);
  const int32_t k = s->q.size, goal = s->goal;
  int32_t pw = gr->pw, py = p / pw, px = p - py * pw, par = node_parent(s, p), t, work = 0;
  double g = node_g(s, p);
  unsigned m;
  int d, rc, cut;
  const uint64_t *bits = gr->ubits[k];
  jctx_init(&J, s, gr, 0);
  if (par < 0) {
    m = 0xffu;
  } else {
    int32_t qy = par / pw;
    m = unit_dirs(gr, p, arrival(par - qy * pw, qy, px, py), k);
  }
  m &= unit_moves(gr, p, k);
  for (d = 0; d < 4; d++) {
    if (!(m >> d & 1u)) continue;
    cut = 0;
    t = unit_straight(&J, bits, px, py, d, &work, &cut, bounded);
    if (t && (rc = offer(&J, p, p + t * gr->off[0][d], px + t * jdx[d], py + t * jdy[d],
                         g + t)) != ASTAR_OK)
      return rc;
  }
  for (d = 4; d < 8; d++) {
    const int h = jdx[d] > 0 ? 0 : 1, v = jdy[d] > 0 ? 2 : 3;
    int32_t c = p, x = px, y = py, i = 0;
    unsigned mv;
    if (!(m >> d & 1u)) continue;
    do {
      double gc;
      c += gr->off[0][d];
      x += jdx[d];
      y += jdy[d];
      gc = g + ++i * ASTAR_GRID_DIAG;
      if (c == goal) {
        if ((rc = offer(&J, p, c, x, y, gc)) != ASTAR_OK) return rc;
        break;
      }
      work += UNIT_DIAG_WORK;
      cut = 0;
      if (bounded && ASTAR_UNLIKELY(work >= UNIT_WORK)) cut = 1; /* c goes on */
      mv = cut ? 0 : unit_diag_moves(gr, bits, x, y, d);
      if ((mv >> h & 1u) && (t = unit_straight(&J, bits, x, y, h, &work, &cut, bounded)) != 0 && !cut &&
          (rc = offer(&J, p, c + t * gr->off[0][h], x + t * jdx[h], y, gc + t)) != ASTAR_OK)
        return rc;
      if (!cut && (mv >> v & 1u) && (t = unit_straight(&J, bits, x, y, v, &work, &cut, bounded)) != 0 &&
          !cut && (rc = offer(&J, p, c + t * gr->off[0][v], x, y + t * jdy[v], gc + t)) != ASTAR_OK)
        return rc;
      if (cut) { /* the bound: c goes on with the run and its scans */
        if ((rc = offer(&J, p, c, x, y, gc)) != ASTAR_OK) return rc;
        break;
      }
    } while (mv >> d & 1u);
  }
  return flush(&J, p, 0);
}

static int expand_unit_free(astar_search *s, int32_t p) { return expand_unit(s, p, 0); }
static int expand_unit_bounded(astar_search *s, int32_t p) { return expand_unit(s, p, 1); }

/* ------------------------------------------------------------------------ */
/* the loops and the topology operations                                      */
/* ------------------------------------------------------------------------ */

/* Scans are bounded on grids wider or higher than JPS_BOUNDED cells (the
** Moving AI maps are all below: there a run crosses a few words at most). */
#define JPS_BOUNDED (3 * JPS_WINDOW)

static int jps_bounded(const astar_search *s) {
  const astar_grid *gr = CGRID(s->topo);
  return gr->w > JPS_BOUNDED || gr->h > JPS_BOUNDED;
}

/* One loop per mode (engine.h: search_loop): general or plain, bounded
** scans or not; the 4-connected expansion never bounds. */
static int expand_jps(astar_search *s, int32_t p) {
  return CGRID(s->topo)->rule == ASTAR_DIAG_NEVER ? expand4(s, p, 0) : expand8(s, p, 0, 0);
}
static int expand_jps_bounded(astar_search *s, int32_t p) { return expand8(s, p, 0, 1); }
ASTAR_INLINE int expand_jps_plain(astar_search *s, int32_t p) {
  return CGRID(s->topo)->rule == ASTAR_DIAG_NEVER ? expand4(s, p, 1) : expand8(s, p, 1, 0);
}
ASTAR_INLINE int expand_jps_plain_bounded(astar_search *s, int32_t p) {
  return expand8(s, p, 1, 1);
}

static int run_jps(astar_search *s, uint64_t n) {
  if (CGRID(s->topo)->rule != ASTAR_DIAG_NEVER && jps_bounded(s))
    return search_loop(s, n, expand_jps_bounded);
  return search_loop(s, n, expand_jps);
}
static int run_jps_plain(astar_search *s, uint64_t n) {
  if (CGRID(s->topo)->rule != ASTAR_DIAG_NEVER && jps_bounded(s))
    return search_loop(s, n, expand_jps_plain_bounded);
  return search_loop(s, n, expand_jps_plain);
}
static int run_jps_sized(astar_search *s, uint64_t n) { /* small maps: no count (a tenth) */
  if (jps_bounded(s)) return search_loop(s, n, expand_unit_bounded);
  return search_loop(s, n, expand_unit_free);
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
  if (q->size > 1 && gr->rule != ASTAR_DIAG_NO_CORNER_CUTTING)
    return "unit size above 1 without diagonal steps";
  if (gr->cost != NULL) return "cell costs";
  if (tags_used(gr, q)) return "tag costs";
  if (q->penalty != NULL) return "penalty";
  if (q->forbid != NULL) return "forbid";
  if (q->cost_fn != NULL) return "cost callback";
  if (q->weight != 1.0) return "weight other than 1";
  return NULL;
}

/* The path to reached jump point v, every cell listed: each jump is a
** diagonal run then a straight one (either may be empty, lat_path_run).
** One walk back counts the cells and, when they fit in cap, puts the jump
** points at the end of nodes as (y << 16 | x), their padded coordinates
** (a side is at most ASTAR_GRID_MAX_SIDE: 16 bits each), so the second
** pass finds no row; then the cells (external ids), their links and the
** costs (in path order, as A* sums them, or per run where that is the
** same: lat_path_run) are written forwards: a jump is a step at least, so
** its cells never reach jump points unread. */
typedef char jps_path_side_check[ASTAR_GRID_MAX_SIDE <= 0xffff ? 1 : -1];

static int32_t jps_path(const astar_search *s, int32_t v, int32_t *nodes, int32_t *links,
                        int32_t cap, double *cost) {
  const astar_grid *gr = CGRID(s->topo);
  int32_t pw = gr->pw, len = 1, nj = 1, u, a, k, uy = lat_row(gr, v), ux = v - uy * pw, ay, ax;
  double sum = 0;
  int exact;
  if (cap < 1) nodes = NULL;
  if (nodes) nodes[cap - 1] = (int32_t)((uint32_t)uy << 16 | (uint32_t)ux);
  for (u = v; (a = node_parent(s, u)) >= 0; u = a, ux = ax, uy = ay, nj++) {
    int32_t adx, ady;
    ay = lat_row(gr, a), ax = a - ay * pw;
    adx = ux > ax ? ux - ax : ax - ux, ady = uy > ay ? uy - ay : ay - uy;
    len += adx > ady ? adx : ady;
    if (nodes && nj < cap) nodes[cap - 1 - nj] = (int32_t)((uint32_t)ay << 16 | (uint32_t)ax);
  }
  if (nodes == NULL || len > cap) return len;
  /* grid step costs are multiples of 2^-32 (astar.h): every partial sum of
  ** a path below 2^21 is exact, in any grouping (lat_path_run's n * c) */
  exact = (len - 1) * ASTAR_GRID_DIAG < 2097152.0;
  nodes[0] = (uy - 1) * gr->w + ux - 1; /* the start (nodes[0] is no later jump's) */
  for (len = 1, k = cap - nj + 1; k < cap; k++) {
    int32_t adx, ady, diag;
    int sd, dd;
    uint32_t c = (uint32_t)nodes[k]; /* read before the jump's cells are written */
    ax = ux, ay = uy, ux = (int32_t)(c & 0xffffu), uy = (int32_t)(c >> 16);
    adx = ux > ax ? ux - ax : ax - ux, ady = uy > ay ? uy - ay : ay - uy;
    diag = adx < ady ? adx : ady;
    sd = adx > ady ? (ux > ax ? 0 : 1) : (uy > ay ? 2 : 3); /* 0..3 straight, 4..7 diagonal */
    dd = uy > ay ? (ux > ax ? 4 : 6) : (ux > ax ? 5 : 7);
    if (diag) /* none in a maze of corridors: the run is skipped */
      len = lat_path_run(nodes, links, len, diag, dd, gr->ext[0][dd], ASTAR_GRID_DIAG, &sum, exact);
    len = lat_path_run(nodes, links, len, (adx > ady ? adx : ady) - diag, sd, gr->ext[0][sd], 1.0,
                       &sum, exact);
  }
  if (cost) *cost = sum;
  return len;
}

const astar_jps_ops astar__grid_jps = {jps_refusal, run_jps, run_jps_plain,
                                       run_jps_sized, jps_path, astar__jump_refusal,
                                       astar__jump_auto, astar__jump_run, astar__jump_run_plain,
                                       astar__ubits_prepare};
