/*
** anyexact.c -- the shortest path through cell centres of a square grid
** with uniform costs (the any-angle optimum of the visibility graph),
** searched over the cells a shortest path can turn at: anyangle.c's fast
** mode asks it after pulling the cell path taut, with the taut path's
** length as the bound to beat, while the work stays within a budget.
**
** Vertices.  A shortest path through centres bends round convex obstacle
** corners; its turns are the open cells near them: the cell diagonal to a
** corner, one beside a block's end, and sometimes a cell further out (the
** lattice of centres may offer no good line from the nearest one).  So the
** vertices are the start, the goal and the open cells within EXACT_R
** (Chebyshev) of a *convex corner cell*: a shut cell (blocked, or forbidden
** by the query) with, in some diagonal direction, the cell there and the
** two beside that corner open -- bench/vis_oracle.c's restriction, which
** spec/anyangle_spec.lua checks against the visibility graph of every open
** cell.  Only vertices inside the ellipse |s v| + |v g| < bound are kept: no
** other can be on a path shorter than the bound.
**
** Search.  A* over the visibility graph (Euclidean heuristic, consistent):
** expanding u, every vertex v still open that u could improve, g(u) + |u v|
** < g(v), on a path that could beat the bound, g(u) + |u v| + |v g| <
** bound, gets a segment test (astar__grid_pass: the corner rule, blocked
** and forbidden cells); with passage, u becomes its parent.  The goal
** popped is the shortest path among these vertices.
**
** Work, counted against a budget: the ellipse's bounding box (scanned
** once for corner cells), one unit per vertex looked at in an expansion
** (a distance and two comparisons), EXACT_TEST units per segment test.  The
** budget is a share of the cell search's own work (its expansions), so the
** any-angle query stays within a small multiple of the plain one; on small
** grids a fixed floor makes the search exact.  A box larger than the budget
** is not scanned, a search whose vertices predict more work is not started,
** and the count is checked as it goes: over the budget the search gives up
** and returns 0 (the caller keeps its path), having spent at most the budget.
** Scratch: the caller's lane arrays (a value per grid cell, with stamps)
** and the vertex list, allocated here for the call.
*/
#include <math.h>
#include <string.h>
#ifdef EXACT_TRACE
#include <stdio.h>
#endif

#include "astar_int.h"

#define EXACT_R 2
#define EXACT_TEST 8
/* the budget, in the units above (a few ns each): EXACT_PER an expansion of
** the cell search, and EXACT_FLOOR more on grids of at most EXACT_SMALL
** cells, where the whole problem is small and the search is exact within
** it (measured: 16 x 16 random grids need up to ~100,000) */
#define EXACT_PER 4
#define EXACT_FLOOR 65536
#define EXACT_SMALL 4096
#define EXACT_CLOSED (-2)

typedef struct vertex {
  int32_t id, x, y;
  int32_t parent, hpos; /* a vertex index; heap position, EXACT_CLOSED, -1 unreached */
  int32_t at;           /* its place in the list of vertices not closed */
  double h, g, f;       /* |v g|, the best cost yet (HUGE_VAL: none), g + h */
} vertex;

typedef struct exact {
  const astar_grid *gr;
  const double *forbid;
  int32_t w, h;
} exact;

static int ex_open_at(const exact *e, int32_t x, int32_t y) {
  return x >= 0 && y >= 0 && x < e->w && y < e->h && !astar_grid_blocked(e->gr, x, y) &&
         !(e->forbid && e->forbid[y * e->w + x] != 0);
}

/* A shut cell inside the grid with a convex corner (see above). */
static int convex(const exact *e, int32_t x, int32_t y) {
  int dx, dy;
  if (x < 0 || y < 0 || x >= e->w || y >= e->h || ex_open_at(e, x, y)) return 0;
  for (dy = -1; dy <= 1; dy += 2)
    for (dx = -1; dx <= 1; dx += 2)
      if (ex_open_at(e, x + dx, y + dy) && ex_open_at(e, x + dx, y) && ex_open_at(e, x, y + dy)) return 1;
  return 0;
}

static double span(int32_t ax, int32_t ay, int32_t bx, int32_t by) {
  double ddx = (double)ax - bx, ddy = (double)ay - by;
  return sqrt(ddx * ddx + ddy * ddy);
}

/* heap of vertex indices by (f, larger g first) */
static int less(const vertex *v, int32_t a, int32_t b) {
  return v[a].f < v[b].f || (v[a].f == v[b].f && v[a].g > v[b].g);
}

static void up(vertex *v, int32_t *heap, int32_t i) {
  int32_t k = heap[i];
  while (i > 0) {
    int32_t p = (i - 1) / 2;
    if (!less(v, k, heap[p])) break;
    heap[i] = heap[p];
    v[heap[i]].hpos = i;
    i = p;
  }
  heap[i] = k;
  v[k].hpos = i;
}

static int32_t pop(vertex *v, int32_t *heap, int32_t *nheap) {
  int32_t top = heap[0], k = heap[--*nheap], i = 0;
  for (;;) {
    int32_t c = 2 * i + 1;
    if (c >= *nheap) break;
    if (c + 1 < *nheap && less(v, heap[c + 1], heap[c])) c++;
    if (!less(v, heap[c], k)) break;
    heap[i] = heap[c];
    v[heap[i]].hpos = i;
    i = c;
  }
  if (*nheap > 0) {
    heap[i] = k;
    v[k].hpos = i;
  }
  v[top].hpos = EXACT_CLOSED;
  return top;
}

/* Adds cell (x, y) as vertex nv of v (its distance to the goal hv). */
static void add(vertex *v, int32_t nv, const exact *e, int32_t x, int32_t y, double hv) {
  v[nv].id = y * e->w + x, v[nv].x = x, v[nv].y = y;
  v[nv].parent = -1, v[nv].hpos = -1, v[nv].at = nv;
  v[nv].h = hv, v[nv].g = HUGE_VAL, v[nv].f = HUGE_VAL;
}

int32_t astar__grid_exact(const astar_grid *gr, const double *forbid, int strict,
                          const astar__lane *l, astar_alloc_fn alloc, void *ud,
                          const int32_t *pts, int32_t npts, uint64_t expanded, int32_t *out,
                          int32_t room) {
  exact e;
  int32_t start = pts[0], goal = pts[npts - 1], sx, sy, gx, gy, x0, y0, x1, y1, x, y, i;
  int32_t nv = 0, nact, nheap = 0, m = 0, z;
  double bound = 0, a, c2, cosv, sinv, half, len, cut;
  uint64_t work, budget;
  size_t cap;
  vertex *v = NULL;
  int32_t *act, *heap;
  uint32_t in;
  if (npts < 3) return 0; /* a straight segment is already the shortest */
  e.gr = gr;
  e.forbid = forbid;
  e.w = astar_grid_width(gr);
  e.h = astar_grid_height(gr);
  sx = start % e.w, sy = start / e.w, gx = goal % e.w, gy = goal / e.w;
  budget = EXACT_PER * expanded + ((int64_t)e.w * e.h <= EXACT_SMALL ? EXACT_FLOOR : 0);
  for (i = 1; i < npts; i++)
    bound += span(pts[i - 1] % e.w, pts[i - 1] / e.w, pts[i] % e.w, pts[i] / e.w);
  cut = bound * (1 - 1e-12); /* a path must be shorter than this */
  /* the ellipse's bounding box: semi-axes a (along s-g) and sqrt(a^2 - c^2) */
  a = bound / 2;
  len = span(sx, sy, gx, gy);
  c2 = len * len / 4;
  cosv = len > 0 ? (gx - sx) / len : 1;
  sinv = len > 0 ? (gy - sy) / len : 0;
  half = sqrt(a * a * cosv * cosv + (a * a - c2) * sinv * sinv);
  x0 = (int32_t)floor((sx + gx) / 2.0 - half), x1 = (int32_t)ceil((sx + gx) / 2.0 + half);
  half = sqrt(a * a * sinv * sinv + (a * a - c2) * cosv * cosv);
  y0 = (int32_t)floor((sy + gy) / 2.0 - half), y1 = (int32_t)ceil((sy + gy) / 2.0 + half);
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 >= e.w) x1 = e.w - 1;
  if (y1 >= e.h) y1 = e.h - 1;
  work = (uint64_t)(x1 - x0 + 1 + 2 * EXACT_R) * (uint64_t)(y1 - y0 + 1 + 2 * EXACT_R);
  if (work > budget) return 0;
  cap = (size_t)(x1 - x0 + 1) * (size_t)(y1 - y0 + 1) + 2;
  v = (vertex *)astar__mem(alloc, ud, NULL, 0, cap * (sizeof *v + 2 * sizeof(int32_t)));
  if (v == NULL) return 0;
  act = (int32_t *)(v + cap);
  heap = act + cap;
  if (*l->gen >= UINT32_MAX - 2) { /* wrapped: every stamp is stale again */
    memset(l->stamp, 0, l->cells * sizeof(uint32_t));
    *l->gen = 0;
  }
  in = ++*l->gen;
  ++*l->gen; /* the lane's promise: *gen moves by 2 */
  /* the vertices: the ends (start first), then the open cells of the box
  ** near a convex corner cell (of the box widened by EXACT_R) inside the
  ** ellipse */
  add(v, nv++, &e, sx, sy, len);
  add(v, nv++, &e, gx, gy, 0);
  l->stamp[start] = l->stamp[goal] = in;
  for (y = y0 - EXACT_R; y <= y1 + EXACT_R; y++)
    for (x = x0 - EXACT_R; x <= x1 + EXACT_R; x++) {
      int32_t ox, oy;
      if (!convex(&e, x, y)) continue;
      for (oy = y - EXACT_R; oy <= y + EXACT_R; oy++)
        for (ox = x - EXACT_R; ox <= x + EXACT_R; ox++) {
          double hv;
          if (ox < x0 || oy < y0 || ox > x1 || oy > y1 || l->stamp[oy * e.w + ox] == in ||
              !ex_open_at(&e, ox, oy))
            continue;
          hv = span(ox, oy, gx, gy);
          if (!(span(sx, sy, ox, oy) + hv < cut)) continue;
          l->stamp[oy * e.w + ox] = in;
          add(v, nv++, &e, ox, oy, hv);
        }
    }
  /* the search's work grows as the square of the vertices (1.2-3 nv^2
  ** measured on random grids): one that would pass the budget by far is
  ** not started */
  if (work + (uint64_t)nv * (uint64_t)nv / 2 > budget) nheap = -1;
  for (i = 0; i < nv; i++) act[i] = i;
  nact = nv;
  v[0].g = 0, v[0].f = len, v[0].parent = 0;
  if (nheap == 0) heap[nheap++] = 0, v[0].hpos = 0;
  while (nheap > 0 && work <= budget) {
    int32_t k = pop(v, heap, &nheap), ux = v[k].x, uy = v[k].y, last = act[--nact];
    double gu = v[k].g;
    if (k == 1) break;   /* the goal */
    act[v[k].at] = last; /* closed: out of the list */
    v[last].at = v[k].at;
    work += (uint64_t)nact;
    for (i = 0; i < nact; i++) {
      vertex *t = &v[act[i]];
      /* improves t (less than its g) on a path that could beat the bound:
      ** |u t| < lim, compared squared before any square root */
      double lim = cut - gu - t->h, ddx = (double)t->x - ux, ddy = (double)t->y - uy, d2, d;
      if (t->g - gu < lim) lim = (t->g - gu) * (1 - 1e-12);
      if (!(lim > 0) || !((d2 = ddx * ddx + ddy * ddy) < lim * lim)) continue;
      work += EXACT_TEST;
      if (!astar__grid_pass(gr, ux, uy, t->x, t->y, forbid, strict)) continue;
      d = sqrt(d2);
      t->g = gu + d;
      t->f = t->g + t->h;
      t->parent = k;
      if (t->hpos < 0) {
        t->hpos = nheap;
        heap[nheap++] = act[i];
      }
      up(v, heap, t->hpos);
    }
  }
  if (work <= budget && v[1].hpos == EXACT_CLOSED)
    for (z = 1;; z = v[z].parent) {
      if (m == room) {
        m = 0;
        break;
      }
      out[m++] = v[z].id;
      if (z == 0) break;
    }
#ifdef EXACT_TRACE
  fprintf(stderr, "EXACT work=%llu nv=%d\n", (unsigned long long)work, nv);
#endif
  astar__mem(alloc, ud, v, cap * (sizeof *v + 2 * sizeof(int32_t)), 0);
  for (i = 0; i < m / 2; i++) {
    int32_t k = out[i];
    out[i] = out[m - 1 - i];
    out[m - 1 - i] = k;
  }
  return m;
}
