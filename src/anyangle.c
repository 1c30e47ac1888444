/*
** anyangle.c -- paths that leave the cell lattice: a segment walker over the
** grid's cells, the cost of a segment under a query's costs, string pulling
** (smoothing) of a cell path, and an any-angle search (Theta*).
**
** Geometry.  A point is a cell centre; the segment between the centres of
** (x0, y0) and (x1, y1) is walked in exact integer arithmetic, as grid.c's
** line of sight does, and every cell it passes through is reported with the
** length of the segment inside it (the pieces add up to the segment's
** length).  Where the segment passes exactly through a grid corner, the two
** cells beside that corner are reported too, with length 0.
**
** Cost.  Under a query q, a cell's rate (its cost per unit of length) is
** what a cardinal step into it costs: cell cost * tag factor + penalty *
** penalty_scale; it is infinite for a blocked cell, a forbidden cell
** (forbid field) or a tag whose factor forbids.  A segment's cost is the
** sum over the cells it crosses of (length inside the cell) * rate, and it
** is infinite (no passage) when it enters an impassable cell or squeezes
** through a corner: on grids whose diagonal rule is "never" or
** "no_corner_cutting" both cells beside a corner it passes must be
** passable, on "one_obstacle" grids at least one, and on "always" grids
** none (a diagonal step there squeezes between two diagonal walls: the
** line_of_sight rule of each).  Uniform
** costs make a segment's cost its length.
**
** The walker reports cells through a callback, so a unit that occupies
** more than one cell can plug in its own rate (a k x k footprint: the
** largest rate of the block) without touching the walk.
**
** Only astar.h's accessors and the diagonal rule are used: the grid's
** storage stays private to grid.c.
*/
#include <math.h>
#include <string.h>

#include "astar_int.h"
#include "filter.h"

/* ------------------------------------------------------------------------ */
/* the walker                                                                 */
/* ------------------------------------------------------------------------ */

/* Segments between cell centres are an ability of square grids
** (ASTAR_CAN_SEGMENTS), between cells inside the grid: every entry point
** below asks both first, before it computes anything from the coordinates
** (a difference of two int32 coordinates out of range can overflow). */
static int segment_ok(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  int32_t w = astar_grid_width(gr), h = astar_grid_height(gr);
  if (!(astar_topology_abilities(astar_grid_topology((astar_grid *)gr)) & ASTAR_CAN_SEGMENTS))
    return 0;
  return x0 >= 0 && y0 >= 0 && x1 >= 0 && y1 >= 0 && x0 < w && x1 < w && y0 < h && y1 < h;
}

int astar_grid_walk(const astar_grid *gr, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                    astar_cell_visit visit, void *ctx) {
  int64_t nx, ny, i = 0, j = 0;
  int32_t sx = x1 > x0 ? 1 : -1, sy = y1 > y0 ? 1 : -1, x = x0, y = y0;
  double len, tprev = 0;
  int rc;
  if (!segment_ok(gr, x0, y0, x1, y1)) return ASTAR_EINVAL;
  nx = x1 > x0 ? x1 - x0 : x0 - x1;
  ny = y1 > y0 ? y1 - y0 : y0 - y1;
  len = sqrt((double)nx * (double)nx + (double)ny * (double)ny);
  while (i < nx || j < ny) {
    /* the next boundary crossing: vertical (d < 0), horizontal (d > 0) or
    ** a corner (d == 0); t is where it falls on the segment, 0..1 */
    int64_t d = (2 * i + 1) * ny - (2 * j + 1) * nx;
    double t = d <= 0 ? (double)(2 * i + 1) / (double)(2 * nx)
                      : (double)(2 * j + 1) / (double)(2 * ny);
    if ((rc = visit(ctx, x, y, (t - tprev) * len, 0)) != 0) return rc;
    tprev = t;
    if (d == 0) {
      if ((rc = visit(ctx, x + sx, y, 0.0, 1)) != 0) return rc;
      if ((rc = visit(ctx, x, y + sy, 0.0, 1)) != 0) return rc;
      x += sx;
      y += sy;
      i++;
      j++;
    } else if (d < 0) {
      x += sx;
      i++;
    } else {
      y += sy;
      j++;
    }
  }
  return visit(ctx, x, y, (1.0 - tprev) * len, 0);
}

/* ------------------------------------------------------------------------ */
/* rates and segment costs                                                    */
/* ------------------------------------------------------------------------ */

/* The rate of the single cell (x, y) under q (NULL: the grid's own costs)
** into *r: 0 passable, 1 impassable (blocked, or forbidden by the query's
** filter), -1 when the filter makes it negative or not finite (*r then
** holds the bad value).  The filter's rules are filter.h's, as the
** searches read them. */
static int one_rate(const astar_grid *gr, const astar_query *q, int32_t x, int32_t y,
                    double *r) {
  int32_t tag = 0;
  double c;
  if (astar_grid_blocked(gr, x, y)) return 1;
  astar_grid_cost(gr, x, y, &c);
  if (q == NULL) {
    *r = c;
    return 0;
  }
  astar_grid_tag(gr, x, y, &tag);
  return filter_rate(q, c, y * astar_grid_width(gr) + x, tag, r);
}

/* The rate of the unit at cell (x, y): for a sized unit (q->size = k > 1)
** the k x k block whose top-left cell it is, passable when every cell is
** (and inside the grid), its rate the largest of theirs -- the sized
** search's step cost, per unit of length.  The walker then walks the
** unit's top-left cell and this plugs the footprint in. */
static int cell_rate(const astar_grid *gr, const astar_query *q, int32_t x, int32_t y,
                     double *r) {
  int32_t k = q ? q->size : 1, a, e;
  double most = 0;
  if (k <= 1) return one_rate(gr, q, x, y, r);
  if (x + k > astar_grid_width(gr) || y + k > astar_grid_height(gr)) return 1;
  for (e = 0; e < k; e++)
    for (a = 0; a < k; a++) {
      double v = 0;
      int rc = one_rate(gr, q, x + a, y + e, &v);
      if (rc != 0) {
        *r = v;
        return rc;
      }
      if (v > most) most = v;
    }
  *r = most;
  return 0;
}

typedef struct seg_ctx {
  const astar_grid *gr;
  const astar_query *q;
  int strict;        /* both corner cells must be passable */
  int squeeze;       /* "always": a corner never stops a segment */
  int fast;          /* every rate is 1 or infinite: no walk */
  int corners, shut; /* corner cells seen at this corner, impassable */
  int passes;        /* the last segment priced has a passage */
  double sum;
  double top;       /* the largest rate crossed (length > 0) */
  int32_t bad_cell; /* the cell whose rate was bad */
  double bad_value;
} seg_ctx;

/* The visitor that sums a segment's cost: 1 stops at an impassable cell or
** corner, 2 at a bad rate. */
static int seg_visit(void *ctx, int32_t x, int32_t y, double len, int corner) {
  seg_ctx *c = (seg_ctx *)ctx;
  double r = 0;
  int k = cell_rate(c->gr, c->q, x, y, &r);
  if (corner) {
    c->corners++;
    if (k != 0) c->shut++; /* a bad rate at zero length costs nothing */
    if (c->corners == 2) {
      if ((c->shut == 2 && !c->squeeze) || (c->strict && c->shut > 0)) return 1;
      c->corners = c->shut = 0;
    }
    return 0;
  }
  if (k == 1) return 1;
  if (k < 0) {
    c->bad_cell = y * astar_grid_width(c->gr) + x;
    c->bad_value = r;
    return 2;
  }
  c->sum += len * r;
  if (len > 0 && r > c->top) c->top = r;
  return 0;
}

static void seg_init(seg_ctx *c, const astar_grid *gr, const astar_query *q) {
  int diag = astar_grid_diagonal(gr);
  astar_topology *topo;
  memset(c, 0, sizeof *c);
  c->gr = gr;
  c->q = q;
  c->strict = diag == ASTAR_DIAG_NEVER || diag == ASTAR_DIAG_NO_CORNER_CUTTING;
  c->squeeze = diag == ASTAR_DIAG_ALWAYS;
  c->bad_cell = -1;
  topo = astar_grid_topology((astar_grid *)gr);
  c->fast = (q == NULL || (!q->penalty && !q->tag_factor && q->size <= 1)) &&
            topo->ops->plain(topo);
}

/* The cost of one segment into *cost (HUGE_VAL: no passage); ECOST on a bad
** rate (ctx says where). */
static int seg_cost(seg_ctx *c, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                    double *cost) {
  int rc;
  c->top = 1; /* uniform rates: the walk is skipped, every rate is 1 */
  c->passes = 0;
  if (c->fast) { /* a segment costs its length: only its passage is asked */
    double ddx = (double)x1 - x0, ddy = (double)y1 - y0;
    c->passes =
        astar__grid_pass(c->gr, x0, y0, x1, y1, c->q ? c->q->forbid : NULL, c->strict);
    *cost = c->passes ? sqrt(ddx * ddx + ddy * ddy) : HUGE_VAL;
    return ASTAR_OK;
  }
  c->sum = 0;
  c->top = 0;
  c->corners = c->shut = 0;
  rc = astar_grid_walk(c->gr, x0, y0, x1, y1, seg_visit, c);
  if (rc == 2) return ASTAR_ECOST;
  if (rc < 0) return rc;
  c->passes = rc == 0;
  /* a passage's finite pieces may sum to HUGE_VAL too (1e308 + 1e308):
  ** c->passes tells it from no passage */
  *cost = rc == 1 ? HUGE_VAL : c->sum;
  return ASTAR_OK;
}

int astar_grid_segment_cost(const astar_grid *gr, const astar_query *q, int32_t x0,
                            int32_t y0, int32_t x1, int32_t y1, double *cost,
                            int32_t *bad_cell) {
  seg_ctx c;
  int rc;
  if (!segment_ok(gr, x0, y0, x1, y1)) return ASTAR_EINVAL;
  seg_init(&c, gr, q);
  rc = seg_cost(&c, x0, y0, x1, y1, cost);
  if (bad_cell) *bad_cell = c.bad_cell;
  if (rc == ASTAR_ECOST && cost) *cost = c.bad_value;
  return rc;
}

/* ------------------------------------------------------------------------ */
/* smoothing                                                                  */
/* ------------------------------------------------------------------------ */

/*
** Greedy string pulling.  From the current anchor (the first cell) the
** candidates are the later cells in order; a candidate is acceptable when
** the segment from the anchor reaches it at a cost no higher than the
** path's own section between them (the same integral taken along the
** path's centre-to-centre steps, so uniform costs compare lengths) and
** crosses no cell dearer than the section's dearest.  The scan goes on
** past unacceptable candidates until a segment has no passage
** (the anchor cannot see further along the path); the farthest acceptable
** candidate becomes the next point and the next anchor.  prefix[i] holds
** the section cost from cell 0 to cell i.
*/
int astar_grid_smooth(const astar_grid *gr, const astar_query *q, const int32_t *cells,
                      int32_t n, int32_t *keep, double *prefix, int32_t *bad_cell,
                      double *bad_value) {
  int32_t w = astar_grid_width(gr), h = astar_grid_height(gr), i, m = 0, a;
  seg_ctx c;
  int rc;
  if (n < 1 || !segment_ok(gr, 0, 0, 0, 0)) return ASTAR_EINVAL;
  seg_init(&c, gr, q);
  for (i = 0; i < n; i++)
    if (cells[i] < 0 || cells[i] >= w * h) return ASTAR_EINVAL;
  prefix[0] = 0;
  for (i = 1; i < n; i++) {
    double s;
    rc = seg_cost(&c, cells[i - 1] % w, cells[i - 1] / w, cells[i] % w, cells[i] / w, &s);
    if (rc != ASTAR_OK) goto bad;
    prefix[i] = prefix[i - 1] + s;
  }
  keep[m++] = 0;
  a = 0;
  while (a < n - 1) {
    int32_t best = a + 1, j;
    int32_t ax = cells[a] % w, ay = cells[a] / w;
    double top = 0, r = 0;
    for (j = a; j < a + 2 && j < n; j++)
      if (cell_rate(gr, q, cells[j] % w, cells[j] / w, &r) == 0 && r > top) top = r;
    for (j = a + 2; j < n; j++) {
      double s;
      /* top: the largest rate among the section's cells a..j */
      if (cell_rate(gr, q, cells[j] % w, cells[j] / w, &r) == 0 && r > top) top = r;
      rc = seg_cost(&c, ax, ay, cells[j] % w, cells[j] / w, &s);
      if (rc != ASTAR_OK) goto bad;
      if (s == HUGE_VAL) break;
      /* no dearer in sum, and through no cell dearer than the section's
      ** dearest: a route that kept out of a costly region stays out, not
      ** even clipping a corner of it (a relative slack of 1e-12 lets a
      ** straight run of equal cells pass despite the rounding of the sums) */
      if (s <= (prefix[j] - prefix[a]) * (1 + 1e-12) && c.top <= top * (1 + 1e-12)) best = j;
    }
    keep[m++] = best;
    a = best;
  }
  return m;
bad:
  if (bad_cell) *bad_cell = c.bad_cell;
  if (bad_value) *bad_value = c.bad_value;
  return rc;
}

/* ------------------------------------------------------------------------ */
/* Theta*                                                                     */
/* ------------------------------------------------------------------------ */

/*
** Basic Theta* (Nash, Daniel, Koenig, Felner 2007): A* over the cells where
** a node generated from s may take s's parent as its own when the segment
** from that parent reaches it (at a lower cost, with non-uniform rates), so
** parents are any visible cell, not only neighbours.  The neighbours of a
** cell are the grid's steps under its diagonal rule, with impassable cells
** (blocked, forbidden) as blocked; every cost is a segment cost as above.
** The heuristic is the Euclidean distance times the smallest rate of any
** passable cell (weighted by q->weight): admissible for any rates.
** Node state lives in flat arrays with generation stamps; the open list is
** a binary heap of node ids keyed by (f, larger g first).
*/
struct astar_theta {
  astar_alloc_fn alloc;
  void *ud;
  size_t cap; /* cells the arrays hold */
  double *g, *f;
  int32_t *parent, *hpos, *heap;
  uint32_t *stamp;
  int32_t *visited;
  size_t nvisited, visited_cap;
  size_t nheap;
  uint32_t gen;
  const astar_grid *gr;
  uint32_t version;
  astar_query q;
  double hk;      /* weight * smallest rate */
  double minrate; /* the smallest rate of a passable cell */
  int32_t start, goal, best;
  double best_h;
  int status, pruned;
  int uniform; /* every passable cell's rate is 1 */
  /* The fast mode (uniform costs, one cell, weight 1, no max_cost): the
  ** grid's own search (jump point search where it serves) finds the cell
  ** path, then astar__grid_taut pulls it taut.  pts holds the last points
  ** made (npts of them, for cell pts_to) so that counting and then writing
  ** them pulls once. */
  int fast;
  astar_search *inner;
  int32_t *pts, npts, pts_to;
  size_t pts_cap;
  astar_stats st;
  int32_t bad_cell;
  double bad_value;
};

#define THETA_CLOSED (-2)
/* how far up its chain of turning points a node looks for a parent */
#define THETA_ANCESTORS 3

astar_theta *astar_theta_new(astar_alloc_fn alloc, void *ud) {
  astar_theta *t = (astar_theta *)astar__mem(alloc, ud, NULL, 0, sizeof *t);
  if (t == NULL) return NULL;
  memset(t, 0, sizeof *t);
  t->alloc = alloc;
  t->ud = ud;
  t->status = ASTAR_ESTATE;
  return t;
}

static void theta_arrays(astar_theta *t, size_t cap, int free_only) {
  /* g, f, parent, hpos, heap, stamp: all or nothing */
  static const size_t size[6] = {sizeof(double), sizeof(double), sizeof(int32_t),
                                 sizeof(int32_t), sizeof(int32_t), sizeof(uint32_t)};
  void *p[6];
  int i, ok = 1;
  p[0] = t->g, p[1] = t->f, p[2] = t->parent, p[3] = t->hpos, p[4] = t->heap, p[5] = t->stamp;
  for (i = 0; i < 6; i++) p[i] = astar__mem(t->alloc, t->ud, p[i], t->cap * size[i], 0);
  for (i = 0; i < 6 && !free_only; i++)
    if ((p[i] = astar__mem(t->alloc, t->ud, NULL, 0, cap * size[i])) == NULL) ok = 0;
  for (i = 0; i < 6 && !free_only && !ok; i++)
    p[i] = astar__mem(t->alloc, t->ud, p[i], p[i] ? cap * size[i] : 0, 0);
  t->cap = free_only || !ok ? 0 : cap;
  t->g = (double *)p[0], t->f = (double *)p[1], t->parent = (int32_t *)p[2];
  t->hpos = (int32_t *)p[3], t->heap = (int32_t *)p[4], t->stamp = (uint32_t *)p[5];
  if (t->cap) memset(t->stamp, 0, cap * sizeof(uint32_t));
}

void astar_theta_free(astar_theta *t) {
  if (t == NULL) return;
  theta_arrays(t, 0, 1);
  astar_search_free(t->inner);
  astar__mem(t->alloc, t->ud, t->pts, t->pts_cap * sizeof(int32_t), 0);
  astar__mem(t->alloc, t->ud, t->visited, t->visited_cap * sizeof(int32_t), 0);
  astar__mem(t->alloc, t->ud, t, sizeof *t, 0);
}

size_t astar_theta_bytes(const astar_theta *t) {
  return sizeof *t + t->cap * (3 * sizeof(double) + 3 * sizeof(int32_t) + sizeof(uint32_t)) +
         t->visited_cap * sizeof(int32_t) + t->pts_cap * sizeof(int32_t) +
         (t->inner ? astar_search_bytes(t->inner) : 0);
}

/* heap ordered by f, then larger g first */
static int theta_less(const astar_theta *t, int32_t a, int32_t b) {
  return t->f[a] < t->f[b] || (t->f[a] == t->f[b] && t->g[a] > t->g[b]);
}

static void theta_set(astar_theta *t, size_t i, int32_t v) {
  t->heap[i] = v;
  t->hpos[v] = (int32_t)i;
}

static void theta_up(astar_theta *t, size_t i) {
  int32_t v = t->heap[i];
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!theta_less(t, v, t->heap[p])) break;
    theta_set(t, i, t->heap[p]);
    i = p;
  }
  theta_set(t, i, v);
}

static void theta_down(astar_theta *t, size_t i) {
  int32_t v = t->heap[i];
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= t->nheap) break;
    if (c + 1 < t->nheap && theta_less(t, t->heap[c + 1], t->heap[c])) c++;
    if (!theta_less(t, t->heap[c], v)) break;
    theta_set(t, i, t->heap[c]);
    i = c;
  }
  theta_set(t, i, v);
}

static double theta_h(const astar_theta *t, int32_t v) {
  int32_t w = astar_grid_width(t->gr);
  double ddx = (double)(v % w - t->goal % w), ddy = (double)(v / w - t->goal / w);
  return t->hk * sqrt(ddx * ddx + ddy * ddy);
}

/* Sets v's g and parent and puts it on (or moves it up in) the open list. */
static void theta_open(astar_theta *t, int32_t v, double g, int32_t parent) {
  int fresh = t->stamp[v] != t->gen || t->hpos[v] == THETA_CLOSED;
  if (t->stamp[v] == t->gen && t->hpos[v] == THETA_CLOSED) t->st.reopened++;
  double h = theta_h(t, v);
  t->stamp[v] = t->gen;
  t->g[v] = g;
  t->f[v] = g + h;
  t->parent[v] = parent;
  if (t->q.track_best && (t->best < 0 || h < t->best_h)) {
    t->best = v;
    t->best_h = h;
  }
  t->st.generated++;
  if (fresh) {
    t->heap[t->nheap] = v;
    t->hpos[v] = (int32_t)t->nheap;
    theta_up(t, t->nheap++);
  } else {
    theta_up(t, (size_t)t->hpos[v]);
  }
}

/* The fast mode's begin: the grid's own search under the query's filter
** (forbid) and budgets, with the grid's default heuristic and algorithm
** (so jump point search where it serves, A* on the other rules). */
static int fast_begin(astar_theta *t, const astar_grid *gr, const astar_query *q) {
  astar_query iq;
  int rc;
  if (t->inner == NULL && (t->inner = astar_search_new(t->alloc, t->ud)) == NULL)
    return ASTAR_ENOMEM;
  astar_query_init(&iq, q->start, q->goal);
  iq.forbid = q->forbid;
  iq.max_expansions = q->max_expansions;
  iq.record_visited = q->record_visited;
  iq.track_best = q->track_best;
  rc = astar_search_begin(t->inner, astar_grid_topology((astar_grid *)gr), &iq);
  if (rc != ASTAR_OK) return rc;
  t->q = *q;
  t->gr = gr;
  t->version = astar_topology_version(astar_grid_topology((astar_grid *)gr));
  t->start = q->start;
  t->goal = q->goal;
  t->bad_cell = -1;
  t->minrate = 1.0;
  memset(&t->st, 0, sizeof t->st);
  t->status = ASTAR_SEARCHING;
  return ASTAR_OK;
}

int astar_theta_begin(astar_theta *t, const astar_grid *gr, const astar_query *q) {
  int32_t w = astar_grid_width(gr), h = astar_grid_height(gr), n = w * h, x, y;
  double minrate = HUGE_VAL, r = 0;
  astar_topology *topo;
  int uniform, k;
  t->status = ASTAR_ESTATE;
  t->gr = NULL;
  if (!segment_ok(gr, 0, 0, 0, 0)) return ASTAR_EINVAL;
  if (q->start < 0 || q->start >= n || q->goal < 0 || q->goal >= n || !(q->weight >= 0) ||
      !isfinite(q->weight) || q->cost_fn != NULL || q->size < 1 || q->size > ASTAR_MAX_UNIT)
    return ASTAR_EINVAL;
  topo = astar_grid_topology((astar_grid *)gr);
  uniform = !q->penalty && !q->tag_factor && topo->ops->plain(topo);
  t->fast = uniform && q->size == 1 && q->weight == 1.0 && q->max_cost == HUGE_VAL;
  t->npts = 0;
  t->pts_to = -1;
  if (t->fast) return fast_begin(t, gr, q);
  if (t->cap < (size_t)n) {
    theta_arrays(t, (size_t)n, 0);
    if (t->cap < (size_t)n) return ASTAR_ENOMEM;
  }
  if (++t->gen == 0) { /* wrapped: every stamp is stale again */
    memset(t->stamp, 0, t->cap * sizeof(uint32_t));
    t->gen = 1;
  }
  t->q = *q;
  t->gr = gr;
  t->version = astar_topology_version(astar_grid_topology((astar_grid *)gr));
  t->start = q->start;
  t->goal = q->goal;
  t->nheap = 0;
  t->nvisited = 0;
  t->best = -1;
  t->best_h = HUGE_VAL;
  t->pruned = 0;
  t->bad_cell = -1;
  memset(&t->st, 0, sizeof t->st);
  /* the smallest rate: 1 without modifiers or a cost layer (cost 1 is
  ** what a grid without one has everywhere) */
  t->uniform = uniform;
  if (uniform) {
    minrate = 1.0;
  } else {
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        if (cell_rate(gr, q, x, y, &r) == 0 && r < minrate) minrate = r;
      }
    if (minrate == HUGE_VAL) minrate = 0;
  }
  t->hk = q->weight * minrate;
  t->minrate = minrate;
  t->status = ASTAR_SEARCHING;
  /* an impassable end: no path; a bad rate at either end: the error the
  ** first segment would raise */
  for (k = 0; k < 2; k++) {
    int32_t v = k ? t->goal : t->start;
    int rk = cell_rate(gr, q, v % w, v / w, &r);
    if (rk == 1) t->status = ASTAR_UNREACHABLE;
    if (rk < 0) {
      t->bad_cell = v;
      t->bad_value = r;
      t->status = ASTAR_ECOST;
    }
    if (rk != 0) return ASTAR_OK;
  }
  theta_open(t, t->start, 0.0, t->start);
  t->st.generated = 1;
  return ASTAR_OK;
}

static int theta_fail(astar_theta *t, seg_ctx *c) {
  t->bad_cell = c->bad_cell;
  t->bad_value = c->bad_value;
  return t->status = ASTAR_ECOST;
}

/* The cost of reaching cell v summed to infinity: no path has that cost.
** A* stops so (EOVERFLOW, naming the node it was reaching); so does this. */
static int theta_overflow(astar_theta *t, int32_t v, double g) {
  t->bad_cell = v;
  t->bad_value = g;
  return t->status = ASTAR_EOVERFLOW;
}

int astar_theta_step(astar_theta *t, uint64_t max_steps) {
  static const int ddx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
  static const int ddy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
  const astar_grid *gr = t->gr;
  int32_t w, hh;
  uint64_t done = 0;
  seg_ctx c;
  struct {
    double lb;
    int32_t node, depth;
  } cand[THETA_ANCESTORS + 1];
  memset(cand, 0, sizeof cand);
  if (t->status != ASTAR_SEARCHING) return t->status;
  /* before the fast mode's inner search, which may have ended at its begin */
  if (astar_topology_version(astar_grid_topology((astar_grid *)gr)) != t->version)
    return t->status = ASTAR_ECHANGED;
  if (t->fast) {
    int rc = astar_search_step(t->inner, max_steps);
    t->st = *astar_search_stats(t->inner);
    return t->status = rc;
  }
  w = astar_grid_width(gr);
  hh = astar_grid_height(gr);
  seg_init(&c, gr, &t->q);
  while (t->nheap > 0) {
    int32_t s = t->heap[0], sx, sy, d, a, depth;
    unsigned open = 0, moves;
    double r;
    if (max_steps && done >= max_steps) return t->status = ASTAR_SEARCHING;
    if (t->q.max_expansions && t->st.expanded >= t->q.max_expansions)
      return t->status = ASTAR_MAX_EXPANSIONS;
    if (s == t->goal) return t->status = ASTAR_FOUND;
    theta_set(t, 0, t->heap[--t->nheap]);
    if (t->nheap > 0) theta_down(t, 0);
    t->hpos[s] = THETA_CLOSED;
    t->st.expanded++;
    done++;
    if (t->q.record_visited) {
      if (astar__grow(t->alloc, t->ud, (void **)&t->visited, &t->visited_cap, t->nvisited + 1,
                      sizeof(int32_t)))
        return t->status = ASTAR_ENOMEM;
      t->visited[t->nvisited++] = s;
    }
    sx = s % w;
    sy = s / w;
    for (d = 0; d < 8; d++) {
      int32_t nx = sx + ddx[d], ny = sy + ddy[d];
      if (nx >= 0 && ny >= 0 && nx < w && ny < hh && cell_rate(gr, &t->q, nx, ny, &r) != 1)
        open |= 1u << d;
    }
    moves = astar__grid_rule_moves(gr, open);
    for (d = 0; moves != 0; d++, moves >>= 1) {
      int32_t nx = sx + ddx[d], ny = sy + ddy[d], v = ny * w + nx, par = -1, nc, k;
      double g = HUGE_VAL, seg;
      if (!(moves & 1u)) continue;
      /* The parent candidates: s itself (path 1 of Theta*), its parent
      ** (path 2) and further up its chain of turning points, where a
      ** corner the parent could not see past may have been visible.  Each
      ** has a lower bound, g[a] + minrate * |a v|, exact when the segment
      ** passes and costs are uniform; they are tried in that order while
      ** one could still improve on what v has, so on uniform grids the
      ** first passable candidate wins and no other segment is walked.
      ** Near-ties go to the farther ancestor (fewer turns). */
      nc = 0;
      for (a = s, depth = 0; depth <= THETA_ANCESTORS; depth++) {
        double ex = (double)(a % w - nx), ey = (double)(a / w - ny), lb;
        lb = t->g[a] + t->minrate * sqrt(ex * ex + ey * ey);
        for (k = nc; k > 0 && (lb < cand[k - 1].lb * (1 - 1e-12) ||
                               (lb <= cand[k - 1].lb * (1 + 1e-12) && depth > cand[k - 1].depth));
             k--)
          cand[k] = cand[k - 1];
        cand[k].lb = lb;
        cand[k].node = a;
        cand[k].depth = depth;
        nc++;
        if (t->parent[a] == a) break;
        a = t->parent[a];
      }
      if (t->stamp[v] == t->gen) g = t->g[v];
      /* While v has no cost yet every candidate is tried, also one whose
      ** bound overflowed (the step from s must be, see below). */
      for (k = 0; k < nc && (g == HUGE_VAL || cand[k].lb < g * (1 - 1e-12)); k++) {
        int32_t u = cand[k].node;
        double ng;
        if (seg_cost(&c, u % w, u / w, nx, ny, &seg) != ASTAR_OK) return theta_fail(t, &c);
        if (!c.passes) continue;
        ng = t->g[u] + seg;
        if (ng == HUGE_VAL) {
          /* Finite pieces summed to infinity, along the segment or with g.
          ** The step from s itself is the relaxation A* makes, and there
          ** such a sum is an error (EOVERFLOW), not a closed door; a
          ** shortcut from an ancestor that overflows is merely no better
          ** (the step from s, or a route round, may still be finite). */
          if (cand[k].depth == 0) return theta_overflow(t, v, ng);
          continue;
        }
        if (ng < g * (1 - 1e-12)) {
          g = ng;
          par = u;
        }
      }
      if (par < 0) continue; /* nothing better than what v has */
      if (g > t->q.max_cost) {
        t->pruned = 1;
        continue;
      }
      theta_open(t, v, g, par);
    }
  }
  return t->status = t->pruned ? ASTAR_MAX_COST : ASTAR_UNREACHABLE;
}

int astar_theta_status(const astar_theta *t) { return t->status; }
const astar_stats *astar_theta_stats(const astar_theta *t) { return &t->st; }
int32_t astar_theta_best(const astar_theta *t) {
  return t->fast ? astar_search_best(t->inner) : t->best;
}

const int32_t *astar_theta_visited(const astar_theta *t, size_t *n) {
  if (t->fast) return astar_search_visited(t->inner, n);
  *n = t->nvisited;
  return t->visited;
}

int32_t astar_theta_bad(const astar_theta *t, double *value) {
  *value = t->bad_value;
  return t->bad_cell;
}

/*
** Refinement of the turning points pts[0..n-1] (the ends stay).  Theta*'s
** turns are cells of its search tree, while the best turn is often a cell
** beside one (points are cell centres, a lattice), and two turns may have
** to move together.  So each interior point i gets a window: the cells
** within r of it (THETA_REFINE after Theta*; FAST_REFINE in the fast mode,
** whose points are already settled, and only beside obstacles and between
** segments up to FAST_NEAR long: taut.c); a dynamic program picks one cell per
** window, or skips up to THETA_SKIP windows in a row, minimising the sum of
** segment costs (the current points are among the choices, so the cost
** never rises).
** Passes repeat, re-centred, while they improve (at most 4).  Scratch, one
** block from the search's allocator: n * (2r + 1)^2 doubles and four times
** as many int32s (each pass's choices and their coordinates among them,
** made once a pass); out of memory, the points stay as they are.  Returns
** the new count.
*/
#define THETA_REFINE 2
#define FAST_REFINE 1
#define LANE_TURNS 25
#define THETA_SKIP 2
/* The cost of the segment a-b (HUGE_VAL: no passage, or a bad rate); only
** its length where its passage is known (the fast mode's points: taut.c's,
** the lane's and refine's own consecutive points all have passage). */
static double seg_of(seg_ctx *c, int32_t a, int32_t b, int32_t w, int known) {
  int32_t ax = a % w, ay = a / w, bx = b % w, by = b / w;
  double s, ddx = (double)bx - ax, ddy = (double)by - ay;
  if (known) return sqrt(ddx * ddx + ddy * ddy); /* as seg_cost() has it */
  return seg_cost(c, ax, ay, bx, by, &s) == ASTAR_OK ? s : HUGE_VAL;
}

static int32_t refine(const astar_theta *t, int32_t *pts, int32_t n, int32_t r, int walled) {
  int32_t w = astar_grid_width(t->gr), pass;
  struct {
    double lb;
    int32_t u, at;
  } cand[(THETA_SKIP + 1) * (2 * THETA_REFINE + 1) * (2 * THETA_REFINE + 1)];
  const int32_t win = (2 * r + 1) * (2 * r + 1);
  size_t cells = (size_t)n * (size_t)win;
  size_t bytes = cells * (sizeof(double) + 4 * sizeof(int32_t)) + (size_t)n * sizeof(int32_t);
  double *best; /* one block: best, from, at (each pass's choices), xy, out */
  int32_t *from, *out, *at, *xy;
  char *block;
  seg_ctx c;
  if (n < 3) return n;
  if ((block = (char *)astar__mem(t->alloc, t->ud, NULL, 0, bytes)) == NULL) return n;
  best = (double *)(void *)block; /* the doubles first: every part aligned */
  from = (int32_t *)(void *)(block + cells * sizeof(double));
  at = from + cells, xy = at + cells, out = xy + 2 * cells;
  seg_init(&c, t->gr, &t->q);
  for (pass = 0; pass < 4; pass++) {
    int32_t i, j, m, k, nc;
    double before = 0, s;
    for (i = 1; i < n; i++) before += seg_of(&c, pts[i - 1], pts[i], w, walled);
    astar__refine_choices(t->gr, walled, pts, n, r, at);
    for (k = 0; k < (int32_t)cells; k++)
      if (at[k] >= 0) xy[2 * k] = at[k] % w, xy[2 * k + 1] = at[k] / w;
    for (j = 0; j < win; j++) best[j] = j == win / 2 ? 0 : HUGE_VAL;
    for (i = 1; i < n; i++)
      for (j = 0; j < win; j++) {
        int32_t z = i * win + j, v = at[z], p;
        best[z] = HUGE_VAL;
        from[z] = -1;
        if (v < 0 || astar_grid_blocked(t->gr, xy[2 * z], xy[2 * z + 1])) continue;
        /* the choices of the (up to THETA_SKIP + 1) layers before, in the
        ** order of a lower bound of what they offer, b + minrate * |uv|;
        ** segments are walked in that order until the next bound cannot
        ** beat the best found (with uniform costs the first passable one
        ** is the best: only the failing ones before it cost a walk) */
        nc = 0;
        for (p = i - 1; p >= 0 && p >= i - 1 - THETA_SKIP; p--)
          for (k = p * win; k < (p + 1) * win; k++) {
            double ex, ey, lb;
            int32_t q;
            if (at[k] < 0 || best[k] == HUGE_VAL) continue;
            ex = (double)(xy[2 * k] - xy[2 * z]);
            ey = (double)(xy[2 * k + 1] - xy[2 * z + 1]);
            lb = best[k] + t->minrate * sqrt(ex * ex + ey * ey);
            for (q = nc; q > 0 && cand[q - 1].lb > lb; q--) cand[q] = cand[q - 1];
            cand[q].lb = lb;
            cand[q].u = at[k];
            cand[q].at = k;
            nc++;
          }
        for (k = 0; k < nc && cand[k].lb < best[z]; k++) {
          int32_t u = cand[k].u;
          double b = best[cand[k].at];
          /* the fast mode: from the point before, passage is known */
          s = seg_of(&c, u, v, w, walled && cand[k].at == (i - 1) * win + win / 2 && j == win / 2);
          if (s == HUGE_VAL) continue;
          if (b + s < best[z]) {
            best[z] = b + s;
            from[z] = cand[k].at;
          }
        }
      }
    if (!(best[(size_t)((n - 1) * win + win / 2)] < before * (1 - 1e-12))) break;
    /* the choices read back from the goal (every layer's choice comes
    ** from an earlier layer, so this ends at the start) */
    m = 0;
    for (k = (n - 1) * win + win / 2;; k = from[k]) {
      out[m++] = at[k];
      if (k == win / 2) break;
    }
    for (i = 0; i < m; i++) pts[i] = out[m - 1 - i];
    n = m; /* fewer or as many: the scratch still fits */
  }
  astar__mem(t->alloc, t->ud, block, bytes, 0);
  return n;
}

/* The fast mode's points to `to`: the inner search's cell path, pulled
** taut; on a cluttered route (a turn every LANE_TURNS cells or more
** often) the lane's Theta* too, the shorter kept; then refined; kept in
** t->pts (a count of 0 when `to` was not reached, ENOMEM). */
static int32_t fast_points(astar_theta *t, const seg_ctx *c, int32_t to) {
  int32_t n = astar_search_path_length(t->inner, to), m = 0, k;
  size_t cells = (size_t)astar_grid_width(t->gr) * (size_t)astar_grid_height(t->gr);
  astar__lane l;
  if (n <= 0) return 0;
  if (astar__grow(t->alloc, t->ud, (void **)&t->pts, &t->pts_cap, (size_t)n * 4, sizeof(int32_t)))
    return ASTAR_ENOMEM;
  astar_search_path(t->inner, to, t->pts, NULL, NULL);
  memcpy(t->pts + n, t->pts, (size_t)n * sizeof(int32_t));
  t->npts = astar__grid_taut(t->gr, t->q.forbid, c->strict, t->pts, n);
  if (t->npts > 2 && t->cap < cells) theta_arrays(t, cells, 0); /* out of memory: no lane */
  l.g = t->g, l.f = t->f, l.parent = t->parent, l.hpos = t->hpos, l.heap = t->heap;
  l.stamp = t->stamp, l.gen = &t->gen, l.cells = cells;
  for (k = 0; k < 2 && t->npts > 2 && t->cap >= cells; k++) {
    /* on a cluttered route the lane, then within its budget the exact search */
    if (k == 0 && (t->npts - 2) * LANE_TURNS >= n)
      m = astar__grid_lane(t->gr, t->q.forbid, c->strict, &l, t->pts + n, n, t->pts, t->npts,
                           t->pts + 2 * n);
    if (k == 1)
      m = astar__grid_exact(t->gr, t->q.forbid, c->strict, &l, t->alloc, t->ud, t->pts, t->npts,
                            t->st.expanded, t->pts + 2 * n, 2 * n);
    if (m > 0) { /* shorter than the points so far */
      memmove(t->pts, t->pts + 2 * n, (size_t)m * sizeof(int32_t));
      t->npts = m;
    }
    m = 0;
  }
  t->npts = refine(t, t->pts, t->npts, FAST_REFINE, 1);
  t->pts_to = to;
  return t->npts;
}

int32_t astar_theta_points(astar_theta *t, int32_t to, int32_t *points, double *cost,
                           double *length) {
  int32_t n = 0, v, i, w;
  double len = 0, sum = 0;
  seg_ctx c;
  if (t->gr == NULL) return 0;
  w = astar_grid_width(t->gr);
  seg_init(&c, t->gr, &t->q);
  if (t->fast) {
    if (t->pts_to != to && (n = fast_points(t, &c, to)) <= 0) return n;
    n = t->npts;
    if (points == NULL) return n;
    memcpy(points, t->pts, (size_t)n * sizeof(int32_t));
  } else {
    if (to < 0 || (size_t)to >= t->cap || t->stamp[to] != t->gen) return 0;
    for (v = to;; v = t->parent[v]) {
      if (points) points[n] = v;
      n++;
      if (v == t->start) break;
    }
    if (points == NULL) return n;
    for (i = 0; i < n / 2; i++) { /* start first */
      int32_t k = points[i];
      points[i] = points[n - 1 - i];
      points[n - 1 - i] = k;
    }
    n = refine(t, points, n, THETA_REFINE, 0);
  }
  for (i = 1; i < n; i++) {
    double ax = points[i] % w - points[i - 1] % w, ay = points[i] / w - points[i - 1] / w, s = 0;
    double d = sqrt(ax * ax + ay * ay);
    len += d;
    /* the fast mode's points have passage and cost their length: no walk */
    if (t->fast) s = d;
    else seg_cost(&c, points[i - 1] % w, points[i - 1] / w, points[i] % w, points[i] / w, &s);
    sum += s;
  }
  if (cost) *cost = n > 1 ? sum : 0;
  if (length) *length = len;
  return n;
}
