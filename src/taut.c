/*
** taut.c -- a cell path of a square grid pulled taut: the turning points
** of an any-angle path in (nearly) the same corridor, found with segment
** tests only.  anyangle.c's fast any-angle mode runs the grid's own search
** (jump point search where it serves) and hands its cell path here.
**
** Passage is anyangle.c's uniform-cost segment test (astar__grid_pass:
** blocked and forbidden cells, the corner rule of the grid's diagonal
** rule), so every pair of consecutive points it returns has passage, and
** the points never make the path longer than the cell path: every change
** below is taken only when it shortens the path.
**
** Work: a few segment tests per turning point (galloping, then a local
** search around each turn), each walking the cells the segment crosses; no
** memory beyond the caller's array.  The lane below is a second opinion
** for cluttered routes, with scratch arrays of a value per grid cell.  Last,
** the windows of cells anyangle.c's refinement may move each turn to.
*/
#include <math.h>
#include <string.h>

#include "astar_int.h"
#include "filter.h"

typedef struct taut {
  const astar_grid *gr;
  const double *forbid;
  int strict;
  int32_t w, h;
} taut;

static int sees(const taut *t, int32_t a, int32_t b) {
  return astar__grid_pass(t->gr, a % t->w, a / t->w, b % t->w, b / t->w, t->forbid, t->strict);
}

/* A blocked or forbidden cell: no segment passes it. */
static int shut(const taut *t, int32_t x, int32_t y) {
  return astar_grid_blocked(t->gr, x, y) ||
         (t->forbid != NULL && filter_field_forbids(t->forbid, y * t->w + x));
}

static double hypot2(int32_t ddx, int32_t ddy) {
  return sqrt((double)ddx * ddx + (double)ddy * ddy);
}

static double dist(const taut *t, int32_t a, int32_t b) {
  double ddx = (double)(a % t->w - b % t->w), ddy = (double)(a / t->w - b / t->w);
  return sqrt(ddx * ddx + ddy * ddy);
}

/*
** Greedy string pulling with galloping: from the anchor a, cells a + 1 + 2^k
** are tried until one is hidden (or the path ends), then the gap between the
** last seen and the first hidden is halved down to neighbours.  Sight along
** a path is not monotone, so this finds a seen cell with a hidden one next
** to it, not always the farthest seen: O(log k) segment tests per point
** instead of k.  Writes the chosen cells over cells[0..] (the write position
** never passes the read one) and returns their count.
*/
static int32_t pull(const taut *t, int32_t *cells, int32_t n) {
  int32_t m = 1, a = 0;
  while (a < n - 1) {
    int32_t lo = a + 1, hi = -1, step = 1, anchor = cells[a];
    while (lo < n - 1) {
      int32_t probe = lo + step > n - 1 ? n - 1 : lo + step;
      if (!sees(t, anchor, cells[probe])) {
        hi = probe;
        break;
      }
      lo = probe;
      step *= 2;
    }
    while (hi > lo + 1) {
      int32_t mid = lo + (hi - lo) / 2;
      if (sees(t, anchor, cells[mid]))
        lo = mid;
      else
        hi = mid;
    }
    cells[m++] = cells[lo];
    a = lo;
  }
  return m;
}

/* The radius of the local search around a turn, in cells. */
#define TAUT_R 2

/*
** One pass of local improvement over the turns pts[1..m-2]: a turn whose
** neighbours see each other is dropped; otherwise it moves to the cell
** within TAUT_R that gives the shortest detour between its neighbours with
** passage on both sides (candidates tried shortest first, the first with
** passage wins).  A turn beside an obstacle moves only to cells beside one
** (a path turns round obstacles, and each candidate costs two segment walks:
** most of this file's time on open maps); a turn in the open, where the
** pull left it, may move anywhere, towards the obstacle it turns round.
** Returns the new count; *moved is set when anything changed.
**
** What a turn does depends only on it and its two neighbours, so a turn
** looked at that stayed (calm[i] = 1, for the first SETTLE_CALM turns) is
** passed over until it or a neighbour changes: the passes after the first
** look at the turns near a change only (on open maps the passes went on,
** up to 8, each as dear as the first, while one turn crept along a wall),
** with the same result as looking at every turn again.
*/
#define SETTLE_CALM 1024
static void unsettle(unsigned char *calm, int32_t i) {
  if (i >= 0 && i < SETTLE_CALM) calm[i] = 0;
}

static int32_t settle(const taut *t, int32_t *pts, int32_t m, unsigned char *calm, int *moved) {
  int32_t i = 1;
  while (i < m - 1) {
    int32_t a = pts[i - 1], b = pts[i + 1], p = pts[i], px = p % t->w, py = p / t->w;
    int32_t ax = a % t->w, ay = a / t->w, bx = b % t->w, by = b / t->w;
    int32_t cand[(2 * TAUT_R + 1) * (2 * TAUT_R + 1)], nc = 0, k, ox, oy;
    double len[(2 * TAUT_R + 1) * (2 * TAUT_R + 1)], cur;
    int walled;
    if (i < SETTLE_CALM && calm[i]) {
      i++;
      continue;
    }
    if (sees(t, a, b)) {
      for (k = i; k < m - 1; k++) pts[k] = pts[k + 1];
      for (k = i; k < m - 1 && k < SETTLE_CALM; k++) calm[k] = k + 1 < SETTLE_CALM ? calm[k + 1] : 0;
      unsettle(calm, i - 1); /* both have a new neighbour */
      unsettle(calm, i);
      m--;
      *moved = 1;
      if (i > 1) i--; /* the turn before may now go too */
      continue;
    }
    walled = astar__grid_walled(t->gr, px, py);
    cur = dist(t, a, p) + dist(t, p, b);
    for (oy = -TAUT_R; oy <= TAUT_R; oy++)
      for (ox = -TAUT_R; ox <= TAUT_R; ox++) {
        int32_t qx = px + ox, qy = py + oy, q = qy * t->w + qx, j;
        double d;
        /* a shut cell would fail its first segment test at once */
        if ((ox == 0 && oy == 0) || qx < 0 || qy < 0 || qx >= t->w || qy >= t->h ||
            shut(t, qx, qy) || (walled && !astar__grid_walled(t->gr, qx, qy)))
          continue;
        d = hypot2(ax - qx, ay - qy) + hypot2(qx - bx, qy - by); /* dist(), no divisions */
        if (!(d < cur * (1 - 1e-12))) continue;
        for (j = nc; j > 0 && len[j - 1] > d; j--) { /* insertion: shortest first */
          len[j] = len[j - 1];
          cand[j] = cand[j - 1];
        }
        len[j] = d;
        cand[j] = q;
        nc++;
      }
    for (k = 0; k < nc; k++)
      /* walked from the candidate out: a segment that fails mostly fails
      ** at the obstacle the turn is beside, at its start */
      if (sees(t, cand[k], a) && sees(t, cand[k], b)) {
        pts[i] = cand[k];
        *moved = 1;
        unsettle(calm, i - 1);
        unsettle(calm, i + 1);
        break;
      }
    if (k == nc && i < SETTLE_CALM) calm[i] = 1; /* it stays */
    i++;
  }
  return m;
}

int32_t astar__grid_taut(const astar_grid *gr, const double *forbid, int strict, int32_t *cells,
                         int32_t n) {
  taut t;
  int32_t m, pass;
  unsigned char calm[SETTLE_CALM];
  if (n < 3) return n;
  t.gr = gr;
  t.forbid = forbid;
  t.strict = strict;
  t.w = astar_grid_width(gr);
  t.h = astar_grid_height(gr);
  m = pull(&t, cells, n);
  memset(calm, 0, sizeof calm);
  for (pass = 0; pass < 8 && m > 2; pass++) {
    int moved = 0;
    m = settle(&t, cells, m, calm, &moved);
    if (!moved) break;
  }
  return m;
}

/*
** The lane: Lazy Theta* (Nash, Koenig, Tovey 2010) over the cells within
** LANE_R (Chebyshev) of the cell path where it runs beside an obstacle,
** LANE_OPEN where it does not.  The grid's search takes a shortest path in
** steps, which may pass an obstacle on the other side than the shortest
** any-angle path (octile lengths overrate some directions by up to 8%);
** in the lane Theta* sees both sides of the small obstacles the cell path
** passes.  A node takes its generator's parent unchecked; when it is
** expanded and that parent is hidden, the closed neighbours and up to
** LANE_UP of each one's turning points are tried, nearest lower bound
** first (uniform costs: the first with passage is the best).  Nodes whose
** f cannot beat the taut path's length are not opened.  The lane holds
** the cell path, every step of which Theta* may take, so the goal is
** reached unless the bound cuts it off.  Work: the lane's cells (up to
** (2 LANE_R + 1)^2 a path cell, each expanded at most once)
** and a segment test per expansion; the caller runs it on cluttered
** routes only (anyangle.c).
*/
#define LANE_R 3
#define LANE_OPEN 1
#define LANE_CLOSED (-2)
#define LANE_UP 2
#define LANE_CAND (8 * (LANE_UP + 1))

static int lane_less(const astar__lane *l, int32_t a, int32_t b) {
  return l->f[a] < l->f[b] || (l->f[a] == l->f[b] && l->g[a] > l->g[b]);
}

static void lane_up(const astar__lane *l, int32_t i) {
  int32_t v = l->heap[i];
  while (i > 0) {
    int32_t p = (i - 1) / 2;
    if (!lane_less(l, v, l->heap[p])) break;
    l->heap[i] = l->heap[p];
    l->hpos[l->heap[i]] = i;
    i = p;
  }
  l->heap[i] = v;
  l->hpos[v] = i;
}

static int32_t lane_pop(const astar__lane *l, int32_t *nheap) {
  int32_t top = l->heap[0], v = l->heap[--*nheap], i = 0;
  for (;;) {
    int32_t c = 2 * i + 1;
    if (c >= *nheap) break;
    if (c + 1 < *nheap && lane_less(l, l->heap[c + 1], l->heap[c])) c++;
    if (!lane_less(l, l->heap[c], v)) break;
    l->heap[i] = l->heap[c];
    l->hpos[l->heap[i]] = i;
    i = c;
  }
  if (*nheap > 0) {
    l->heap[i] = v;
    l->hpos[v] = i;
  }
  l->hpos[top] = LANE_CLOSED;
  return top;
}

/*
** The lane's gate.  The lane helps where the cell path passes a small
** obstacle on the longer side; a turn round a wall (a room's, a maze's)
** has no other side within the lane, and there the lane is all cost (on
** the room and maze maps it never shortened a path, at 1 to 2 times the
** default search).  So it runs only when at least half the turns of
** the taut path are beside a small obstacle (random maps: 70 to 100% of
** the turns; rooms and mazes: 0 to 30%, at their walls' stubs between two
** doors): a 4-connected group of shut cells (blocked or
** forbidden) round one of the turn's neighbours that stays inside the
** square of radius GATE_R round the turn, touching neither its border nor
** the grid's edge (4-connected: obstacles that meet only at a corner count
** as two, so a diagonal wall may open the gate but never close it).
*/
#define GATE_R (LANE_R + 1)
#define GATE_SIDE (2 * GATE_R + 1)

static int small_obstacle(const taut *t, int32_t p) {
  static const int sx[4] = {1, -1, 0, 0}, sy[4] = {0, 0, 1, -1};
  int32_t px = p % t->w, py = p / t->w, ox, oy;
  unsigned char seen[GATE_SIDE * GATE_SIDE];
  int32_t stack[GATE_SIDE * GATE_SIDE];
  memset(seen, 0, sizeof seen);
  for (oy = -1; oy <= 1; oy++)
    for (ox = -1; ox <= 1; ox++) {
      int32_t n = 0, k, big = 0, x = px + ox, y = py + oy;
      if (x < 0 || y < 0 || x >= t->w || y >= t->h) return 0; /* the grid's edge */
      k = (oy + GATE_R) * GATE_SIDE + ox + GATE_R;
      if (seen[k] || !shut(t, x, y)) continue;
      seen[k] = 1;
      stack[n++] = k;
      while (n > 0 && !big) {
        int32_t c = stack[--n], cx = c % GATE_SIDE - GATE_R, cy = c / GATE_SIDE - GATE_R, d;
        for (d = 0; d < 4 && !big; d++) {
          int32_t qx = px + cx + sx[d], qy = py + cy + sy[d];
          int32_t j = (cy + sy[d] + GATE_R) * GATE_SIDE + cx + sx[d] + GATE_R;
          if (qx < 0 || qy < 0 || qx >= t->w || qy >= t->h) {
            big = 1;
          } else if (!seen[j] && shut(t, qx, qy)) {
            int32_t rx = cx + sx[d], ry = cy + sy[d];
            /* on the square's border: the obstacle reaches out of it */
            big = rx == -GATE_R || rx == GATE_R || ry == -GATE_R || ry == GATE_R;
            seen[j] = 1;
            stack[n++] = j;
          }
        }
      }
      if (!big) return 1;
    }
  return 0;
}

/* At least half of up to GATE_SAMPLE turns, evenly spaced along the path
** (the share is what tells the maps apart, and a flood costs up to
** GATE_SIDE^2 cells: on a maze's 1,500 turns every turn cost as much as
** the lane), beside a small obstacle. */
#define GATE_SAMPLE 24
static int lane_gate(const taut *t, const int32_t *pts, int32_t npts) {
  int32_t turns = npts - 2, step = (turns + GATE_SAMPLE - 1) / GATE_SAMPLE, i, k = 0, z = 0;
  int32_t tried;
  if (turns < 1) return 0;
  tried = (turns + step - 1) / step; /* the turns 1, 1 + step, ... */
  for (i = 1; i < npts - 1; i += step, k++) {
    z += small_obstacle(t, pts[i]);
    if (2 * z >= tried) return 1;
    if (2 * (z + tried - k - 1) < tried) return 0; /* cannot reach half */
  }
  return 0;
}

int32_t astar__grid_lane(const astar_grid *gr, const double *forbid, int strict,
                         const astar__lane *l, const int32_t *cells, int32_t n,
                         const int32_t *pts, int32_t npts, int32_t *out) {
  static const int ddx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
  static const int ddy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
  taut t;
  int32_t i, nheap = 0, start = cells[0], goal = cells[n - 1], m = 0, z;
  struct {
    double lb;
    int32_t u, near;
  } cand[LANE_CAND];
  double len = 0, bound = 0;
  uint32_t in, seen; /* stamps: in the lane, reached */
  unsigned char calm[SETTLE_CALM];
  int32_t gx = goal % astar_grid_width(gr), gy = goal / astar_grid_width(gr), px, py;
  t.gr = gr;
  t.forbid = forbid;
  t.strict = strict;
  t.w = astar_grid_width(gr);
  t.h = astar_grid_height(gr);
  if (!lane_gate(&t, pts, npts)) return 0; /* most turns round walls: no lane */
  if (*l->gen >= UINT32_MAX - 2) {         /* wrapped: every stamp is stale again */
    memset(l->stamp, 0, l->cells * sizeof(uint32_t));
    *l->gen = 0;
  }
  in = ++*l->gen;
  seen = ++*l->gen;
  for (i = 1; i < npts; i++) bound += dist(&t, pts[i - 1], pts[i]);
  for (i = 0; i < n; i++) {
    int32_t cx = cells[i] % t.w, cy = cells[i] / t.w, x, y;
    int32_t r = astar__grid_walled(gr, cx, cy) ? LANE_R : LANE_OPEN;
    for (y = cy - r; y <= cy + r; y++)
      for (x = cx - r; x <= cx + r; x++)
        if (x >= 0 && y >= 0 && x < t.w && y < t.h && l->stamp[y * t.w + x] != seen)
          l->stamp[y * t.w + x] = in;
    l->stamp[cells[i]] = in;
  }
  l->g[start] = 0;
  l->f[start] = dist(&t, start, goal);
  l->parent[start] = start;
  l->stamp[start] = seen;
  l->heap[nheap++] = start;
  l->hpos[start] = 0;
  while (nheap > 0) {
    int32_t s = lane_pop(l, &nheap), sx = s % t.w, sy = s / t.w, d, p = l->parent[s];
    unsigned moves = astar__grid_moves(gr, sx, sy, forbid), mv;
    if (p != s && !sees(&t, p, s)) {
      /* the parent assumed at generation is hidden: the closed neighbours
      ** (s's generator is one) and their chains of turning points, by
      ** lower bound; the first with passage (a neighbour has) */
      int32_t nc = 0, k, j;
      for (d = 0, mv = moves; mv != 0; d++, mv >>= 1) {
        int32_t u = (sy + ddy[d]) * t.w + sx + ddx[d];
        if (!(mv & 1u) || l->stamp[u] != seen || l->hpos[u] != LANE_CLOSED) continue;
        for (k = 0; k <= LANE_UP && nc < LANE_CAND; k++) {
          double lb = l->g[u] + dist(&t, u, s);
          for (j = nc; j > 0 && lb <= cand[j - 1].lb * (1 + 1e-12); j--) cand[j] = cand[j - 1];
          cand[j].lb = lb;
          cand[j].u = u;
          cand[j].near = k == 0;
          nc++;
          if (l->parent[u] == u) break;
          u = l->parent[u];
        }
      }
      for (k = 0; k < nc; k++)
        if (cand[k].near || sees(&t, cand[k].u, s)) {
          l->g[s] = cand[k].lb;
          l->parent[s] = cand[k].u;
          break;
        }
      p = l->parent[s];
    }
    if (s == goal) break;
    px = p % t.w;
    py = p / t.w;
    for (d = 0; moves != 0; d++, moves >>= 1) {
      int32_t x = sx + ddx[d], y = sy + ddy[d], v = y * t.w + x, u = p;
      double g, f;
      if (!(moves & 1u) || (l->stamp[v] != in && l->stamp[v] != seen)) continue;
      if (l->stamp[v] == seen && l->hpos[v] == LANE_CLOSED) continue;
      /* lazily: s's parent (the start's children: the start), its
      ** passage to v checked when v is expanded */
      g = l->g[u] + hypot2(x - px, y - py);
      if (l->stamp[v] == seen && !(g < l->g[v] * (1 - 1e-12))) continue;
      f = g + hypot2(x - gx, y - gy);
      if (!(f < bound)) continue; /* cannot beat the bound */
      l->g[v] = g;
      l->f[v] = f;
      l->parent[v] = u;
      if (l->stamp[v] != seen) {
        l->stamp[v] = seen;
        l->hpos[v] = nheap;
        l->heap[nheap++] = v;
      }
      lane_up(l, l->hpos[v]);
    }
  }
  if (l->stamp[goal] != seen) return 0;
  for (z = goal;; z = l->parent[z]) {
    out[m++] = z;
    if (z == start) break;
  }
  for (i = 0; i < m / 2; i++) {
    int32_t k = out[i];
    out[i] = out[m - 1 - i];
    out[m - 1 - i] = k;
  }
  memset(calm, 0, sizeof calm);
  for (i = 0; i < 8 && m > 2; i++) {
    int moved = 0;
    m = settle(&t, out, m, calm, &moved);
    if (!moved) break;
  }
  for (i = 1; i < m; i++) len += dist(&t, out[i - 1], out[i]);
  return len < bound * (1 - 1e-12) ? m : 0;
}

/* ------------------------------------------------------------------------ */
/* refine's windows (anyangle.c)                                              */
/* ------------------------------------------------------------------------ */

/* anyangle.c's refinement moves each turn within a window of cells; which
** cells, in the fast mode, follows the rules of settle() above. */
#define FAST_NEAR 32
static int32_t cheb(int32_t a, int32_t b, int32_t w) {
  int32_t ddx = a % w - b % w, ddy = a / w - b / w;
  if (ddx < 0) ddx = -ddx;
  if (ddy < 0) ddy = -ddy;
  return ddx > ddy ? ddx : ddy;
}

/* The cells of refine's program, layer by layer: layer i holds the window's
** cells round pts[i], choice j at (j % side - r, j / side - r), -1 off the
** grid; layers 0 and n - 1 hold only the ends (as the middle choice).  In
** the fast mode (walled) a turn at a segment longer than FAST_NEAR keeps
** its place (a move by a cell changes a long segment's length least, and
** each choice costs long walks: most of the fast mode's time on open maps),
** and a turn beside an obstacle stays beside one (as in settle). */
void astar__refine_choices(const astar_grid *gr, int walled, const int32_t *pts, int32_t n,
                           int32_t r, int32_t *at) {
  int32_t w = astar_grid_width(gr), h = astar_grid_height(gr), side = 2 * r + 1, i, j;
  int32_t win = side * side;
  for (i = 0; i < n; i++) {
    int32_t px = pts[i] % w, py = pts[i] / w, *row = at + (size_t)i * (size_t)win;
    int ends = i == 0 || i == n - 1, pinned = 0, beside = 0;
    if (!ends && walled)
      pinned = cheb(pts[i - 1], pts[i], w) > FAST_NEAR || cheb(pts[i], pts[i + 1], w) > FAST_NEAR;
    if (!ends && walled && !pinned) beside = astar__grid_walled(gr, px, py);
    for (j = 0; j < win; j++) {
      int32_t x = px + j % side - r, y = py + j / side - r;
      row[j] = -1;
      if (j == win / 2)
        row[j] = pts[i];
      else if (!ends && !pinned && x >= 0 && y >= 0 && x < w && y < h &&
               !(beside && !astar__grid_walled(gr, x, y)))
        row[j] = y * w + x;
    }
  }
}
