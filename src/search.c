/*
** search.c -- the A* search loop, shared by graphs and grids.
**
** One loop (astar_search_step) pops the best open node and hands it to the
** topology's expansion (expand_graph: CSR edges; expand_grid: the 8 padded
** offsets).  Both feed relax(), which owns every rule about costs, reopening,
** heuristics and the open list, so the two topologies cannot drift apart.
** The topology branch is taken once per expansion, not per neighbour, and
** the grid's common case (uniform costs, no modifiers) is a separate
** instantiation of the same inline code with the modifier tests folded away.
**
** Node state lives in flat arrays indexed by node id and is valid only when
** its stamp equals the search's generation, so a query never clears memory
** it did not touch.  The open list is a binary heap that records each node's
** position for O(log n) decrease-key and reopening.  stop = "optimal" keeps a
** second heap of the open nodes keyed by g (only in that mode), so "is any
** open node cheaper than the goal?" is a look at its top.
**
** Successor bypass: the best node an expansion opens is held in a one-node
** slot instead of the heap, and expanded next when its key is no worse than
** the heap's top (on open terrain it usually is: f stays constant toward the
** goal and high_g prefers the newest node).  The keys compared are the
** heap's own, so the expansion order is the heap's; it saves a push that
** would climb to the root and the pop that would bring it back.
**
** Longjmp safety: callbacks run only inside relax() and begin; every buffer
** they can interrupt is owned by the astar_search, and nothing the next begin
** relies on is left half-written (the generation bump invalidates the rest).
*/
#include <float.h>
#include <math.h>
#include <string.h>

#include "astar_int.h"

enum { TOPO_NONE = 0, TOPO_GRAPH, TOPO_GRID };

/* astar_node.pos when not in the heap: closed (or new), or in the bypass slot. */
enum { POS_CLOSED = -1, POS_NEXT = -2 };

/* A closed node is reopened only for an improvement larger than this
** relative amount.  Without it, two routes of equal length whose float sums
** differ in the last bit (1 + sqrt2 + 1 vs 1 + 1 + sqrt2) reopen nodes on
** open grids for nothing; real improvements are never this small. */
#define REOPEN_EPS 1e-12

struct astar_search {
  astar_alloc_fn alloc;
  void *ud;
  astar_node *ns;               /* node states, ns_init of them zeroed */
  size_t ns_cap, ns_init;
    int32_t *parent;              /* graph: edge id; grid: direction of the step in */
  size_t parent_cap;
  int32_t *gpos;                /* by-g heap positions (stop = optimal) */
  size_t gpos_cap;
  double *hc;                   /* callback heuristic values (cached) */
  size_t hc_cap;
  double *cc;                   /* incoming step cost when a cost_fn runs */
  size_t cc_cap;
  int use_cc;                   /* this query keeps cc (it has a cost_fn) */
  double *scratch;              /* audit: h per node (owned here: the
                                ** heuristic may longjmp out of an audit) */
  size_t scratch_cap;
  astar_heap open, byg;
  uint32_t gen;
  astar_trace_entry *trace;
  size_t ntrace, trace_cap;
  int32_t *visited;
  size_t nvisited, visited_cap;
  /* the current query */
  int status;
  int topo;
  astar_graph *graph;
  const astar_grid *grid;
  uint32_t version;
  astar_query q;
  int32_t start, goal;          /* internal ids (padded cells on grids) */
  int reached;                  /* the goal has a g value */
  int reverse;                  /* distance search relaxing steps backwards */
  double gx, gy, gz;            /* goal position */
  double sx, sy, sz;            /* start position */
  double ux, uy, uz;            /* unit vector start -> goal; 0 if they meet */
    double octile_k;              /* octile's diagonal extra: grid or true sqrt2 */
  astar_heap_item next;         /* the bypass slot (node -1 when empty) */
  uint32_t seq;                 /* FIFO tie-break counter (saturates) */
  astar_stats st;
  int32_t best;                 /* reached node with the smallest h */
  double best_h;
  int pruned;                   /* max_cost cut something off */
  int32_t err_node;
  double err_value;
  double inv_pw;                /* grids: 1 / padded width */
};

/* ------------------------------------------------------------------------ */
/* lifecycle                                                                  */
/* ------------------------------------------------------------------------ */

astar_search *astar_search_new(astar_alloc_fn alloc, void *ud) {
  astar_search *s = (astar_search *)astar__mem(alloc, ud, NULL, 0, sizeof *s);
  if (s == NULL) return NULL;
  memset(s, 0, sizeof *s);
  s->alloc = alloc;
  s->ud = ud;
  s->gen = 1;
  s->status = ASTAR_ESTATE;
  s->err_node = -1;
  return s;
}

void astar_search_free(astar_search *s) {
  if (s == NULL) return;
  astar__mem(s->alloc, s->ud, s->ns, s->ns_cap * sizeof(astar_node), 0);
  astar__mem(s->alloc, s->ud, s->parent, s->parent_cap * sizeof(int32_t), 0);
  astar__mem(s->alloc, s->ud, s->gpos, s->gpos_cap * sizeof(int32_t), 0);
  astar__mem(s->alloc, s->ud, s->hc, s->hc_cap * sizeof(double), 0);
  astar__mem(s->alloc, s->ud, s->cc, s->cc_cap * sizeof(double), 0);
  astar__mem(s->alloc, s->ud, s->scratch, s->scratch_cap * sizeof(double), 0);
  astar__mem(s->alloc, s->ud, s->open.a, s->open.cap * sizeof(astar_heap_item), 0);
  astar__mem(s->alloc, s->ud, s->byg.a, s->byg.cap * sizeof(astar_heap_item), 0);
  astar__mem(s->alloc, s->ud, s->trace, s->trace_cap * sizeof(astar_trace_entry), 0);
  astar__mem(s->alloc, s->ud, s->visited, s->visited_cap * sizeof(int32_t), 0);
  astar__mem(s->alloc, s->ud, s, sizeof *s, 0);
}

void astar_query_init(astar_query *q, int32_t start, int32_t goal) {
  memset(q, 0, sizeof *q);
  q->start = start;
  q->goal = goal;
  q->heuristic = ASTAR_H_EUCLIDEAN;
  q->weight = 1.0;
  q->stop = ASTAR_STOP_EXPAND;
  q->tie_break = ASTAR_TIE_HIGH_G;
  q->penalty_scale = 1.0;
  q->max_cost = HUGE_VAL;
}

/* ------------------------------------------------------------------------ */
/* indexed binary heap                                                        */
/* ------------------------------------------------------------------------ */

ASTAR_INLINE int item_less(const astar_heap_item *a, const astar_heap_item *b) {
  return a->fkey < b->fkey || (a->fkey == b->fkey && a->k < b->k);
}

/* f <-> heap key (see astar_heap_item). */
ASTAR_INLINE uint64_t fkey(double f) {
  uint64_t u;
  memcpy(&u, &f, sizeof u);
  return u;
}

ASTAR_INLINE double key_f(uint64_t u) {
  double f;
  memcpy(&f, &u, sizeof f);
  return f;
}

/* `which` selects the heap (0 open: positions in the node states; 1 by-g:
** positions in gpos); constant at each call site, so the compiler folds it. */
#define HPOS(s, node, which) (*((which) ? &(s)->gpos[node] : &(s)->ns[node].pos))

ASTAR_INLINE void heap_up(astar_search *s, astar_heap *h, size_t i, int which) {
  astar_heap_item it = h->a[i];
  while (i > 0) {
    size_t p = (i - 1) >> 1;
    if (!item_less(&it, &h->a[p])) break;
    h->a[i] = h->a[p];
    HPOS(s, h->a[i].node, which) = (int32_t)i;
    i = p;
  }
  h->a[i] = it;
  HPOS(s, it.node, which) = (int32_t)i;
}

ASTAR_INLINE void heap_down(astar_search *s, astar_heap *h, size_t i, int which) {
  astar_heap_item it = h->a[i];
  size_t n = h->n;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && item_less(&h->a[c + 1], &h->a[c])) c++;
    if (!item_less(&h->a[c], &it)) break;
    h->a[i] = h->a[c];
    HPOS(s, h->a[i].node, which) = (int32_t)i;
    i = c;
  }
  h->a[i] = it;
  HPOS(s, it.node, which) = (int32_t)i;
}

/* Removes the top: the hole descends to a leaf along the smaller children
** (one compare per level), then the last item rises from there; it came
** from the bottom, so it seldom rises far (Floyd's bottom-up variant). */
ASTAR_INLINE void heap_pop(astar_search *s, astar_heap *h, int which) {
  size_t i = 0, n = --h->n;
  astar_heap_item last = h->a[n];
  if (n == 0) return;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && item_less(&h->a[c + 1], &h->a[c])) c++;
    h->a[i] = h->a[c];
    HPOS(s, h->a[i].node, which) = (int32_t)i;
    i = c;
  }
  h->a[i] = last;
  heap_up(s, h, i, which);
}

static int heap_push(astar_search *s, astar_heap *h, int32_t node, double f,
                     uint32_t k, int which) {
  if (ASTAR_UNLIKELY(h->n == h->cap) &&
      astar__grow(s->alloc, s->ud, (void **)&h->a, &h->cap, h->n + 1,
                  sizeof(astar_heap_item)))
    return ASTAR_ENOMEM;
  h->a[h->n].fkey = fkey(f);
  h->a[h->n].k = k;
  h->a[h->n].node = node;
  heap_up(s, h, h->n++, which);
  return ASTAR_OK;
}

/* Changes the key of the item at i, in either direction. */
ASTAR_INLINE void heap_update(astar_search *s, astar_heap *h, size_t i, double f,
                              uint32_t k, int which) {
  int32_t node = h->a[i].node;
  h->a[i].fkey = fkey(f);
  h->a[i].k = k;
  heap_up(s, h, i, which);
  heap_down(s, h, (size_t)HPOS(s, node, which), which);
}

static void heap_remove(astar_search *s, astar_heap *h, size_t i, int which) {
  int32_t gone = h->a[i].node;
  h->n--;
  if (i < h->n) {
    int32_t moved = h->a[h->n].node;
    h->a[i] = h->a[h->n];
    heap_up(s, h, i, which);
    heap_down(s, h, (size_t)HPOS(s, moved, which), which);
  }
  HPOS(s, gone, which) = -1;
}

/* ------------------------------------------------------------------------ */
/* heuristics                                                                 */
/* ------------------------------------------------------------------------ */

/* Built-in estimate from position (x, y, z) to the goal.  Values that
** overflow (coordinates near DBL_MAX) are clamped so no NaN reaches f. */
ASTAR_INLINE double builtin_h(const astar_search *s, double x, double y,
                              double z) {
  double dx = fabs(x - s->gx), dy = fabs(y - s->gy), dz = fabs(z - s->gz), h;
  switch (s->q.heuristic) {
    case ASTAR_H_ZERO: return 0.0;
    case ASTAR_H_EUCLIDEAN: h = sqrt(dx * dx + dy * dy + dz * dz); break;
    case ASTAR_H_MANHATTAN: h = dx + dy + dz; break;
    case ASTAR_H_OCTILE:
      h = (dx < dy ? s->octile_k * dx + dy : s->octile_k * dy + dx) + dz;
      break;
    case ASTAR_H_CHEBYSHEV:
      h = dx > dy ? dx : dy;
      if (dz > h) h = dz;
      break;
    default: {
      /* bisector family: v = node - start, t = v . u (foot of the
      ** perpendicular on the start-goal line), distance to the line = |v - t u| */
      double vx = x - s->sx, vy = y - s->sy, vz = z - s->sz;
      double t = vx * s->ux + vy * s->uy + vz * s->uz;
      double px = vx - t * s->ux, py = vy - t * s->uy, pz = vz - t * s->uz;
      h = sqrt(px * px + py * py + pz * pz);
      if (s->ux == 0 && s->uy == 0 && s->uz == 0) {
        /* start == goal in space: no line; the distance to the goal */
        h = sqrt(dx * dx + dy * dy + dz * dz);
      } else if (s->q.heuristic == ASTAR_H_FULL_BISECTOR) {
        /* from the foot (start + t u) on to the goal */
        double fx = s->sx + t * s->ux - s->gx, fy = s->sy + t * s->uy - s->gy,
               fz = s->sz + t * s->uz - s->gz;
        h += sqrt(fx * fx + fy * fy + fz * fz);
      }
      break;
    }
  }
  return h <= DBL_MAX ? h : DBL_MAX;
}

/* The built-in estimate on a grid cell: 2-D, small coordinates, no clamp.
** Octile uses the grid's own diagonal cost, so it is exact and consistent. */
ASTAR_INLINE double grid_h(const astar_search *s, double x, double y) {
  double dx = fabs(x - s->gx), dy = fabs(y - s->gy);
  switch (s->q.heuristic) {
    case ASTAR_H_ZERO: return 0.0;
    case ASTAR_H_OCTILE:
      return dx < dy ? s->octile_k * dx + dy : s->octile_k * dy + dx;
    case ASTAR_H_MANHATTAN: return dx + dy;
    case ASTAR_H_CHEBYSHEV: return dx > dy ? dx : dy;
    case ASTAR_H_EUCLIDEAN: return sqrt(dx * dx + dy * dy);
    default: return builtin_h(s, x, y, 0.0);
  }
}

/* ------------------------------------------------------------------------ */
/* relaxation (every rule about entering a node lives here)                  */
/* ------------------------------------------------------------------------ */

/* Grid row of a padded index without a division per call: the reciprocal
** is exact enough that one correction step fixes rounding at multiples. */
ASTAR_INLINE int32_t grid_row(const astar_search *s, int32_t p) {
  int32_t pw = s->grid->pw, y = (int32_t)((double)p * s->inv_pw);
  if ((y + 1) * pw <= p) y++;
  else if (y * pw > p) y--;
  return y;
}

/* External (unpadded) cell id of a padded index. */
static int32_t grid_external(const astar_search *s, int32_t p) {
  int32_t y = grid_row(s, p);
  return (y - 1) * s->grid->w + (p - y * s->grid->pw - 1);
}

static int record_error(astar_search *s, int status, int32_t node, double v) {
  s->err_node = node;
  s->err_value = v;
  return status;
}

/* The h of node v: from the cache for callback heuristics (calling it on
** first sight), otherwise computed.  (x, y) are the grid coordinates (graphs
** read the node's position instead). */
ASTAR_INLINE int node_h(astar_search *s, int32_t v, int fresh, double x,
                        double y, double *h) {
  if (s->q.heuristic == ASTAR_H_CALLBACK) {
    if (fresh) {
      double hv = 0;
      int32_t ext = s->topo == TOPO_GRID ? grid_external(s, v) : v;
      int32_t goal = s->topo == TOPO_GRID ? grid_external(s, s->goal) : s->goal;
      if (s->q.heuristic_fn(s->q.heuristic_ctx, ext, goal, &hv))
        return ASTAR_ECALLBACK;
      if (!(hv >= 0) || !isfinite(hv))
        return record_error(s, ASTAR_EHEURISTIC, ext, hv);
      s->hc[v] = hv;
    }
    *h = s->hc[v];
  } else if (s->topo == TOPO_GRAPH) {
    const astar_node_rec *n = &s->graph->nodes[v];
    *h = builtin_h(s, n->x, n->y, n->z);
  } else {
    *h = grid_h(s, x, y);
  }
  return ASTAR_OK;
}

ASTAR_INLINE uint32_t tie_key(astar_search *s, double h) {
  if (s->q.tie_break == ASTAR_TIE_HIGH_G) {
    union { float f; uint32_t u; } b;
    b.f = (float)h;
    return b.u;
  }
  return s->seq == UINT32_MAX ? s->seq : s->seq++;
}

/*
** Offers node v the cost-so-far ng through `ref` (graph: the edge; grid: the
** padded parent cell).  step is the step cost (kept for path costs when a
** cost callback decided it).  New nodes get their h and enter the open list;
** open nodes are decreased; closed nodes are reopened (seeds 000 and 003: a
** cheaper route to a closed node puts it back on the open list).
*/
ASTAR_INLINE int relax_impl(astar_search *s, int32_t v, int32_t ref, double ng,
                            double step, double x, double y, int plain) {
  astar_node *n = &s->ns[v];
  double h, f;
  int rc;
  /* finite steps can still sum to infinity (1e308 + 1e308): no path has
  ** that cost (plain grid steps cannot get there) */
  if (!plain && ASTAR_UNLIKELY(ng == HUGE_VAL))
    return record_error(s, ASTAR_EOVERFLOW,
                        s->topo == TOPO_GRID ? grid_external(s, v) : v, ng);
  if (n->stamp != s->gen) {
    if (!plain && ng > s->q.max_cost) {
      s->pruned = 1;
      return ASTAR_OK;
    }
    if (plain) h = grid_h(s, x, y);
    else if ((rc = node_h(s, v, 1, x, y, &h)) != ASTAR_OK) return rc;
        n->stamp = s->gen;
    n->g = ng;
    n->pos = POS_CLOSED;
    s->parent[v] = ref;
    if (!plain && s->q.stop == ASTAR_STOP_OPTIMAL) s->gpos[v] = -1;
    if (!plain) {
      if (s->use_cc) s->cc[v] = step;
      if (s->q.track_best && h < s->best_h) {
        s->best_h = h;
        s->best = v;
      }
    }
    if (v == s->goal) s->reached = 1;
  } else {
        if (!(ng < n->g)) return ASTAR_OK;
    if (n->pos == POS_CLOSED) {
      if (!(ng < n->g - REOPEN_EPS * n->g)) return ASTAR_OK;
      s->st.reopened++;
    }
    if (plain) h = grid_h(s, x, y);
    else if ((rc = node_h(s, v, 0, x, y, &h)) != ASTAR_OK) return rc;
    n->g = ng;
    s->parent[v] = ref;
    if (!plain && s->use_cc) s->cc[v] = step;
  }
  if (plain || s->q.weight == 1.0) f = ng + h;
  else f = s->q.weight == 0 ? ng : ng + s->q.weight * h;
    if (n->pos >= 0) {
    heap_update(s, &s->open, (size_t)n->pos, f, tie_key(s, h), 0);
  } else {
    astar_heap_item it;
    it.fkey = fkey(f);
    it.k = tie_key(s, h);
    it.node = v;
    if (n->pos == POS_CLOSED) s->st.generated++;
    if (s->next.node < 0 || s->next.node == v || item_less(&it, &s->next)) {
      /* v takes the bypass slot; a previous holder goes to the heap */
      if (s->next.node >= 0 && s->next.node != v &&
          heap_push(s, &s->open, s->next.node, key_f(s->next.fkey), s->next.k, 0))
        return ASTAR_ENOMEM;
      s->next = it;
      n->pos = POS_NEXT;
    } else if (heap_push(s, &s->open, v, f, it.k, 0)) {
      return ASTAR_ENOMEM;
    }
  }
  if (!plain && s->q.stop == ASTAR_STOP_OPTIMAL) {
    if (s->gpos[v] >= 0) heap_update(s, &s->byg, (size_t)s->gpos[v], ng, 0, 1);
    else if (heap_push(s, &s->byg, v, ng, 0, 1)) return ASTAR_ENOMEM;
  }
  return ASTAR_OK;
}

ASTAR_INLINE int relax(astar_search *s, int32_t v, int32_t ref, double ng,
                       double step, double x, double y) {
  return relax_impl(s, v, ref, ng, step, x, y, 0);
}

/* Step cost of a graph edge after the query's tag factors, in *out; 0 when
** a factor forbids the edge.  (Forbidding is a flag, not an infinite cost:
** a product that overflows is an error, not a closed door.)  Shared by
** relaxation and path costs. */
ASTAR_INLINE int graph_step(const astar_search *s, double cost, int32_t edge,
                            double *out) {
  if (s->q.tag_factor) {
    int32_t t = s->graph->edges[edge].tag;
    if (t > 0 && t < s->q.tag_count) {
      double k = s->q.tag_factor[t];
      if (k == ASTAR_FORBID) return 0;
      cost *= k;
    }
  }
  *out = cost;
  return 1;
}

/* The query's cost callback on the step from -> to whose cost so far is
** *c (edge: the graph edge or grid direction; at: the id a bad value is
** reported for).  1: relax with *c (replaced); 0: the callback forbade the
** step; < 0: an error status.  Without a callback: 1. */
ASTAR_INLINE int step_callback(astar_search *s, int32_t from, int32_t to,
                               int32_t edge, int32_t at, double *c) {
  double out = *c;
  if (!s->q.cost_fn) return 1;
  if (s->q.cost_fn(s->q.cost_ctx, from, to, edge, *c, &out)) return ASTAR_ECALLBACK;
  if (out == ASTAR_FORBID) return 0;
  if (!(out >= 0) || !isfinite(out)) return record_error(s, ASTAR_ECOST, at, out);
  *c = out;
  return 1;
}

static int expand_graph(astar_search *s, int32_t u) {
  const astar_graph *g = s->graph;
  const astar_adj *a, *end;
  double gu = s->ns[u].g;
  if (g->first[u] == g->first[u + 1]) return ASTAR_OK; /* adj may be NULL */
  a = g->adj + g->first[u];
  end = g->adj + g->first[u + 1];
  for (; a < end; a++) {
    double c;
    int rc;
    if (!g->nodes[a->to].enabled) continue;
    if (!graph_step(s, a->cost, a->edge, &c)) continue;
    if (!isfinite(c)) return record_error(s, ASTAR_ECOST, a->edge, c);
    if ((rc = step_callback(s, u, a->to, a->edge, a->edge, &c)) <= 0) {
      if (rc < 0) return rc;
      continue;
    }
    if ((rc = relax(s, a->to, a->edge, gu + c, c, 0, 0)) != ASTAR_OK) return rc;
  }
  return ASTAR_OK;
}

/* Reverse graph expansion: each edge e = (u -> v) into v offers u the cost
** g(v) + c(e); u's link becomes e, the edge to take toward the source. */
static int expand_graph_rev(astar_search *s, int32_t v) {
  const astar_graph *g = s->graph;
  int32_t i, end = g->rfirst[v + 1];
  double gv = s->ns[v].g;
  for (i = g->rfirst[v]; i < end; i++) {
    int32_t e = g->redge[i], u = g->edges[e].from;
    double c;
    int rc;
    if (!g->nodes[u].enabled) continue;
    if (!graph_step(s, g->edges[e].cost, e, &c)) continue;
    if (!isfinite(c)) return record_error(s, ASTAR_ECOST, e, c);
    if ((rc = step_callback(s, u, v, e, e, &c)) <= 0) {
      if (rc < 0) return rc;
      continue;
    }
    if ((rc = relax(s, u, e, gv + c, c, 0, 0)) != ASTAR_OK) return rc;
  }
  return ASTAR_OK;
}

/* All directions but the one back to p's parent: a child never improves its
** parent (g(parent) + 2 c >= g(parent) for any costs >= 0), so that step
** is never worth relaxing, whatever the heuristic. */
ASTAR_INLINE unsigned back_mask(const astar_search *s, int32_t p) {
  static const unsigned char opposite[8] = {1, 0, 3, 2, 7, 6, 5, 4};
  int32_t d = s->parent[p];
  return d < 0 ? 0xffu : ~(1u << opposite[d]) & 0xffu;
}

/* Cost of entering padded cell q (unpadded id uq, for the fields) by
** direction d, before the cost callback, in *out: step length times cell
** cost times tag factor, plus penalty.  0 when a tag factor forbids the cell
** (as for graph_step, forbidding is a flag, never an infinite cost). */
ASTAR_INLINE int grid_step(const astar_search *s, int32_t q, int d, int32_t uq,
                           double *out) {
  const astar_grid *gr = s->grid;
  double c = d < 4 ? 1.0 : ASTAR_GRID_DIAG;
  if (gr->cost) c *= gr->cost[q];
  if (s->q.tag_factor && gr->tag) {
    int32_t t = gr->tag[q];
    if (t > 0 && t < s->q.tag_count) {
      double k = s->q.tag_factor[t];
      if (k == ASTAR_FORBID) return 0;
      c *= k;
    }
  }
  if (s->q.penalty) c += s->q.penalty[uq] * s->q.penalty_scale;
  *out = c;
  return 1;
}

/* The moves out of padded cell p (unpadded id up) this query allows: bit d
** set when the step in direction d enters an open, unforbidden cell under
** the grid's diagonal rule, a forbidden cell counting as blocked for the
** corner rules too.  Without a forbid field that is the grid's own move
** mask.  The rule is symmetric (the same two side cells decide a diagonal
** step either way), so reverse expansions use it too. */
static unsigned query_moves(const astar_search *s, int32_t p, int32_t up) {
  static const int side[8][2] = {{0, 0}, {0, 0}, {0, 0}, {0, 0},
                                 {0, 2}, {0, 3}, {1, 2}, {1, 3}};
  const astar_grid *gr = s->grid;
  const double *forbid = s->q.forbid;
  int open[8], d;
  unsigned m = 0;
  if (!forbid) return gr->moves[p];
  for (d = 0; d < 8; d++)
    open[d] = !gr->blocked[p + gr->off[d]] &&
              forbid[up + astar__dx[d] + astar__dy[d] * gr->w] == 0;
  for (d = 0; d < 8; d++) {
    if (!open[d]) continue;
    if (d >= 4) {
      int a = open[side[d][0]], b = open[side[d][1]];
      if (gr->diagonal == ASTAR_DIAG_NEVER) break;
      if (gr->diagonal == ASTAR_DIAG_NO_CORNER_CUTTING ? !(a && b)
          : gr->diagonal == ASTAR_DIAG_ONE_OBSTACLE ? !(a || b) : 0)
        continue;
    }
    m |= 1u << d;
  }
  return m;
}

/* Expands padded cell p in the general case: cell costs, tag factors,
** penalty and forbid fields, a cost callback. */
static int expand_grid_general(astar_search *s, int32_t p) {
  const astar_grid *gr = s->grid;
  int32_t w = gr->w, py = grid_row(s, p), px = p - py * gr->pw;
  int32_t up = (py - 1) * w + (px - 1); /* unpadded id of p */
  double gp = s->ns[p].g, x = px - 1, y = py - 1;
  unsigned m = query_moves(s, p, up) & back_mask(s, p);
  int d, rc;
  for (d = 0; m != 0; d++, m >>= 1) {
    int32_t q = p + gr->off[d], uq = up + astar__dx[d] + astar__dy[d] * w;
    double c;
    if (!(m & 1)) continue;
    if (!grid_step(s, q, d, uq, &c)) continue;
    if (!(c >= 0) || !isfinite(c)) return record_error(s, ASTAR_ECOST, uq, c);
    if ((rc = step_callback(s, up, uq, d, uq, &c)) <= 0) {
      if (rc < 0) return rc;
      continue;
    }
    rc = relax(s, q, d, gp + c, c, x + astar__dx[d], y + astar__dy[d]);
    if (rc != ASTAR_OK) return rc;
  }
  return ASTAR_OK;
}

/* Reverse grid expansion: each neighbour a that may step to p offers the
** step a -> p (the cost of entering p); a's link becomes the direction of
** that step. */
static int expand_grid_rev(astar_search *s, int32_t p) {
  static const unsigned char opposite[8] = {1, 0, 3, 2, 7, 6, 5, 4};
  const astar_grid *gr = s->grid;
  int32_t w = gr->w, py = grid_row(s, p), px = p - py * gr->pw;
  int32_t up = (py - 1) * w + (px - 1);
  double gp = s->ns[p].g, x = px - 1, y = py - 1;
  unsigned m = query_moves(s, p, up);
  int d, rc;
  for (d = 0; m != 0; d++, m >>= 1) {
    int32_t a = p + gr->off[d], ua = up + astar__dx[d] + astar__dy[d] * w;
    int back = opposite[d]; /* the direction of the step a -> p */
    double c;
    if (!(m & 1)) continue;
    if (!grid_step(s, p, back, up, &c)) continue;
    if (!(c >= 0) || !isfinite(c)) return record_error(s, ASTAR_ECOST, up, c);
    if ((rc = step_callback(s, ua, up, back, up, &c)) <= 0) {
      if (rc < 0) return rc;
      continue;
    }
    rc = relax(s, a, back, gp + c, c, x + astar__dx[d], y + astar__dy[d]);
    if (rc != ASTAR_OK) return rc;
  }
  return ASTAR_OK;
}

/* The fast path: the grid's move mask already applies the blocked cells and
** the diagonal rule, and every step costs 1 or ASTAR_GRID_DIAG. */
static int expand_grid_plain(astar_search *s, int32_t p) {
  const astar_grid *gr = s->grid;
  unsigned m = gr->moves[p] & back_mask(s, p);
  int32_t py = grid_row(s, p), px = p - py * gr->pw;
  double gp = s->ns[p].g, x = px - 1, y = py - 1;
  int d, rc;
  for (d = 0; m != 0; d++, m >>= 1) {
    if (!(m & 1)) continue;
        rc = relax_impl(s, p + gr->off[d], d, gp + (d < 4 ? 1.0 : ASTAR_GRID_DIAG), 0,
                    x + astar__dx[d], y + astar__dy[d], 1);
    if (rc != ASTAR_OK) return rc;
  }
  return ASTAR_OK;
}

/* ------------------------------------------------------------------------ */
/* begin                                                                      */
/* ------------------------------------------------------------------------ */

static int check_query(const astar_query *q, int32_t n) {
  if (q->start < 0 || q->start >= n || q->goal < 0 || q->goal >= n)
    return ASTAR_EINVAL;
  if (q->heuristic < ASTAR_H_ZERO || q->heuristic > ASTAR_H_CALLBACK)
    return ASTAR_EINVAL;
  if (q->heuristic == ASTAR_H_CALLBACK && q->heuristic_fn == NULL)
    return ASTAR_EINVAL;
  if (!(q->weight >= 0) || !isfinite(q->weight)) return ASTAR_EINVAL;
  if (q->stop < ASTAR_STOP_EXPAND || q->stop > ASTAR_STOP_OPTIMAL)
    return ASTAR_EINVAL;
  if (q->tie_break != ASTAR_TIE_HIGH_G && q->tie_break != ASTAR_TIE_FIFO)
    return ASTAR_EINVAL;
  if (q->tag_factor != NULL) {
    int32_t t;
    if (q->tag_count < 0) return ASTAR_EINVAL;
    for (t = 1; t < q->tag_count; t++)
      if (!(q->tag_factor[t] >= 0) ||
          (!isfinite(q->tag_factor[t]) && q->tag_factor[t] != HUGE_VAL))
        return ASTAR_EINVAL;
  }
  if (!isfinite(q->penalty_scale)) return ASTAR_EINVAL;
  if (isnan(q->max_cost) || q->max_cost < 0) return ASTAR_EINVAL;
  return ASTAR_OK;
}

/* Sizes the per-node arrays for n nodes; fresh node states get stamp 0,
** which no live generation uses. */
static int reserve(astar_search *s, size_t n, int want_hc, int want_cc,
                   int want_gpos) {
    if (astar__resize(s->alloc, s->ud, (void **)&s->ns, &s->ns_cap, n,
                    sizeof(astar_node)) ||
      astar__resize(s->alloc, s->ud, (void **)&s->parent, &s->parent_cap, n,
                    sizeof(int32_t)))
    return ASTAR_ENOMEM;
    if (want_gpos && astar__resize(s->alloc, s->ud, (void **)&s->gpos, &s->gpos_cap,
                                 n, sizeof(int32_t)))
    return ASTAR_ENOMEM;
  if (s->ns_init < s->ns_cap) {
    memset(s->ns + s->ns_init, 0, (s->ns_cap - s->ns_init) * sizeof(astar_node));
    s->ns_init = s->ns_cap;
  }
    if (want_hc && astar__resize(s->alloc, s->ud, (void **)&s->hc, &s->hc_cap, n,
                               sizeof(double)))
    return ASTAR_ENOMEM;
  if (want_cc && astar__resize(s->alloc, s->ud, (void **)&s->cc, &s->cc_cap, n,
                               sizeof(double)))
    return ASTAR_ENOMEM;
  return ASTAR_OK;
}

/* Common part of both begins: the topology fields are set, start/goal are
** internal ids and (sx..gz) are positions. */
/* Sizes and resets the per-query state (everything but the start nodes). */
static int begin_reset(astar_search *s, size_t n) {
  double len;
  int rc;
  s->status = ASTAR_ESTATE;
  if ((rc = reserve(s, n, s->q.heuristic == ASTAR_H_CALLBACK,
                    s->q.cost_fn != NULL, s->q.stop == ASTAR_STOP_OPTIMAL)) != ASTAR_OK)
    return rc;
  s->use_cc = s->q.cost_fn != NULL;
  if (++s->gen == 0) {
    size_t i;
    for (i = 0; i < s->ns_init; i++) s->ns[i].stamp = 0;
    s->gen = 1;
  }
  s->open.n = s->byg.n = 0;
  s->next.node = -1;
  s->ntrace = s->nvisited = 0;
  s->reached = 0;
  s->seq = 0;
  memset(&s->st, 0, sizeof s->st);
  s->best = -1;
  s->best_h = HUGE_VAL;
  s->pruned = 0;
  s->err_node = -1;
  s->err_value = 0;
  len = sqrt((s->gx - s->sx) * (s->gx - s->sx) + (s->gy - s->sy) * (s->gy - s->sy) +
             (s->gz - s->sz) * (s->gz - s->sz));
  if (len > 0 && isfinite(len)) {
    s->ux = (s->gx - s->sx) / len;
    s->uy = (s->gy - s->sy) / len;
    s->uz = (s->gz - s->sz) / len;
  } else {
    s->ux = s->uy = s->uz = 0;
  }
  return ASTAR_OK;
}

/* Puts internal node v (external id ext) on the open list at cost 0. */
static int seed(astar_search *s, int32_t v, int32_t ext) {
  double x = 0, y = 0;
  if (s->topo == TOPO_GRID) {
    x = ext % s->grid->w;
    y = ext / s->grid->w;
  }
  return relax(s, v, -1, 0.0, 0.0, x, y);
}

/* start_ok / goal_ok: the ends are passable.  An impassable goal still
** gets a search when the query tracks the best node: a partial path toward
** a wall (a player clicked on it) is the point of partial paths. */
static int begin_common(astar_search *s, size_t n, int start_ok, int goal_ok) {
  int rc;
  s->reverse = 0;
  if ((rc = begin_reset(s, n)) != ASTAR_OK) return rc;
  if (!start_ok || (!goal_ok && !s->q.track_best)) {
    s->status = ASTAR_UNREACHABLE;
    return ASTAR_OK;
  }
  if (!goal_ok) s->goal = -2; /* never reached; the search runs until empty */
  if ((rc = seed(s, s->start, s->q.start)) != ASTAR_OK) return s->status = rc;
  s->status = ASTAR_SEARCHING;
  return ASTAR_OK;
}

/*
** Distance searches: every source at cost 0, no goal, the zero heuristic;
** the search runs until nothing is left and then reports FOUND.  reverse
** relaxes each step backwards (from the node it enters to the node it
** leaves), so g is the cost from a node to its nearest source and the
** parent link is the first step to take toward it.
*/
static int begin_distances(astar_search *s, size_t n, const int32_t *sources,
                           size_t count, int reverse) {
  size_t i;
  int rc;
  s->q.heuristic = ASTAR_H_ZERO;
  s->q.weight = 1.0;
  s->q.stop = ASTAR_STOP_EXPAND;
  s->q.track_best = 0;
  s->goal = -1;
  s->reverse = reverse;
  if ((rc = begin_reset(s, n)) != ASTAR_OK) return rc;
  for (i = 0; i < count; i++) {
    int32_t ext = sources[i], v;
    if (s->topo == TOPO_GRAPH) {
      v = ext;
      if (!s->graph->nodes[v].enabled) continue;
    } else {
      v = (ext / s->grid->w + 1) * s->grid->pw + ext % s->grid->w + 1;
      if (s->grid->blocked[v] || (s->q.forbid && s->q.forbid[ext] != 0)) continue;
    }
    if ((rc = seed(s, v, ext)) != ASTAR_OK) return s->status = rc;
  }
  s->status = ASTAR_SEARCHING;
  return ASTAR_OK;
}

/* The query with only the fields distance searches use checked. */
static int check_distance_query(const astar_query *q, const int32_t *sources,
                                size_t count, int32_t n) {
  astar_query c = *q;
  size_t i;
  for (i = 0; i < count; i++)
    if (sources[i] < 0 || sources[i] >= n) return ASTAR_EINVAL;
  c.start = c.goal = 0;
  c.heuristic = ASTAR_H_ZERO;
  c.weight = 1;
  c.stop = ASTAR_STOP_EXPAND;
  c.tie_break = ASTAR_TIE_HIGH_G;
  return n > 0 ? check_query(&c, n) : ASTAR_EINVAL;
}

int astar_search_begin_distances(astar_search *s, astar_graph *g,
                                 const int32_t *sources, size_t count,
                                 int reverse, const astar_query *q) {
  int rc;
  s->topo = TOPO_NONE;
  s->status = ASTAR_ESTATE;
  if ((rc = check_distance_query(q, sources, count, g->nn)) != ASTAR_OK) return rc;
  if ((rc = astar__graph_prepare(g)) != ASTAR_OK ||
      (reverse && (rc = astar__graph_prepare_reverse(g)) != ASTAR_OK))
    return rc;
  s->q = *q;
  s->topo = TOPO_GRAPH;
  s->graph = g;
  s->grid = NULL;
  s->version = g->version;
  s->octile_k = ASTAR_SQRT2 - 1;
  s->sx = s->sy = s->sz = s->gx = s->gy = s->gz = 0;
  return begin_distances(s, (size_t)g->nn, sources, count, reverse);
}

int astar_search_begin_distances_grid(astar_search *s, const astar_grid *gr,
                                      const int32_t *sources, size_t count,
                                      int reverse, const astar_query *q) {
  int rc;
  s->topo = TOPO_NONE;
  s->status = ASTAR_ESTATE;
  if ((rc = check_distance_query(q, sources, count, gr->w * gr->h)) != ASTAR_OK)
    return rc;
  s->q = *q;
  s->topo = TOPO_GRID;
  s->graph = NULL;
  s->grid = gr;
  s->version = gr->version;
  s->inv_pw = 1.0 / gr->pw;
  s->octile_k = ASTAR_GRID_DIAG - 1;
  s->sx = s->sy = s->sz = s->gx = s->gy = s->gz = 0;
  return begin_distances(s, (size_t)gr->pw * (size_t)gr->ph, sources, count, reverse);
}

int astar_search_begin(astar_search *s, astar_graph *g, const astar_query *q) {
  int rc;
  const astar_node_rec *a, *b;
  s->topo = TOPO_NONE;
  s->status = ASTAR_ESTATE;
  if ((rc = check_query(q, g->nn)) != ASTAR_OK) return rc;
  if ((rc = astar__graph_prepare(g)) != ASTAR_OK) return rc;
  s->q = *q;
  s->topo = TOPO_GRAPH;
  s->graph = g;
  s->grid = NULL;
  s->version = g->version;
  s->start = q->start;
  s->goal = q->goal;
  a = &g->nodes[q->start];
  b = &g->nodes[q->goal];
  s->octile_k = ASTAR_SQRT2 - 1;
  s->sx = a->x; s->sy = a->y; s->sz = a->z;
  s->gx = b->x; s->gy = b->y; s->gz = b->z;
  return begin_common(s, (size_t)g->nn, a->enabled, b->enabled);
}

int astar_search_begin_grid(astar_search *s, const astar_grid *gr,
                            const astar_query *q) {
  int rc;
  int32_t n = gr->w * gr->h;
  int ends_open;
  s->topo = TOPO_NONE;
  s->status = ASTAR_ESTATE;
  if ((rc = check_query(q, n)) != ASTAR_OK) return rc;
  s->q = *q;
  s->topo = TOPO_GRID;
  s->graph = NULL;
  s->grid = gr;
  s->version = gr->version;
  s->inv_pw = 1.0 / gr->pw;
  s->start = (q->start / gr->w + 1) * gr->pw + q->start % gr->w + 1;
  s->goal = (q->goal / gr->w + 1) * gr->pw + q->goal % gr->w + 1;
  s->octile_k = ASTAR_GRID_DIAG - 1;
  s->sx = q->start % gr->w; s->sy = q->start / gr->w; s->sz = 0;
  s->gx = q->goal % gr->w; s->gy = q->goal / gr->w; s->gz = 0;
  ends_open = !gr->blocked[s->start] && !(q->forbid && q->forbid[q->start] != 0);
  return begin_common(s, (size_t)gr->pw * (size_t)gr->ph, ends_open,
                      !gr->blocked[s->goal] && !(q->forbid && q->forbid[q->goal] != 0));
}

/* ------------------------------------------------------------------------ */
/* the loop                                                                   */
/* ------------------------------------------------------------------------ */

static int record(astar_search *s, int32_t v, double f) {
  int32_t ext = s->topo == TOPO_GRID ? grid_external(s, v) : v;
  if (s->q.record_visited) {
    if (astar__grow(s->alloc, s->ud, (void **)&s->visited, &s->visited_cap,
                    s->nvisited + 1, sizeof(int32_t)))
      return ASTAR_ENOMEM;
    s->visited[s->nvisited++] = ext;
  }
  if (s->q.record_trace) {
    astar_trace_entry *t;
    int32_t ref = s->parent[v], par = -1;
    if (astar__grow(s->alloc, s->ud, (void **)&s->trace, &s->trace_cap,
                    s->ntrace + 1, sizeof(astar_trace_entry)))
      return ASTAR_ENOMEM;
        if (ref >= 0)
      par = s->topo == TOPO_GRID ? grid_external(s, v - s->grid->off[ref])
                                 : s->graph->edges[ref].from;
    t = &s->trace[s->ntrace++];
    t->node = ext;
    t->parent = par;
    t->g = s->ns[v].g;
    t->f = f;
  }
  return ASTAR_OK;
}

int astar_search_step(astar_search *s, uint64_t max_steps) {
  uint64_t done = 0;
  int plain = 0;
  uint32_t version;
  if (s->status != ASTAR_SEARCHING) return s->status;
  version = s->topo == TOPO_GRAPH ? s->graph->version : s->grid->version;
  if (version != s->version) return s->status = ASTAR_ECHANGED;
  /* the grid fast path: every step costs 1 or ASTAR_GRID_DIAG and relax()
  ** needs none of the per-query extras */
  if (s->topo == TOPO_GRID)
    plain = s->grid->cost == NULL && s->q.tag_factor == NULL &&
            s->q.penalty == NULL && s->q.forbid == NULL && s->q.cost_fn == NULL &&
            s->q.heuristic != ASTAR_H_CALLBACK && s->q.weight == 1.0 &&
            s->q.stop != ASTAR_STOP_OPTIMAL && s->q.max_cost == HUGE_VAL &&
            !s->q.track_best;
  for (;;) {
    astar_heap_item top;
    int rc;
    if (s->reached) {
      if (s->q.stop == ASTAR_STOP_FIRST_HIT) return s->status = ASTAR_FOUND;
      if (s->q.stop == ASTAR_STOP_OPTIMAL &&
          (s->byg.n == 0 || key_f(s->byg.a[0].fkey) >= s->ns[s->goal].g))
        return s->status = ASTAR_FOUND;
    }
        if (s->open.n == 0 && s->next.node < 0) {
      if (s->goal == -1) return s->status = ASTAR_FOUND; /* distances: all settled */
      return s->status = s->pruned ? ASTAR_MAX_COST : ASTAR_UNREACHABLE;
    }
    if (s->q.max_expansions && s->st.expanded >= s->q.max_expansions)
      return s->status = ASTAR_MAX_EXPANSIONS;
    if (max_steps && done == max_steps) return ASTAR_SEARCHING;
        /* take the best open node: the bypass slot when its key is no worse than
    ** the heap's top (the heap would have returned it too) */
    if (s->next.node >= 0 &&
        (s->open.n == 0 || !item_less(&s->open.a[0], &s->next))) {
      top = s->next;
      s->next.node = -1;
    } else {
      top = s->open.a[0];
      heap_pop(s, &s->open, 0);
      if (s->next.node >= 0) {
        /* the slot lost to the heap's top: it joins the heap */
        astar_heap_item old = s->next;
        s->next.node = -1;
        if (heap_push(s, &s->open, old.node, key_f(old.fkey), old.k, 0))
          return s->status = ASTAR_ENOMEM;
      }
    }
    s->ns[top.node].pos = POS_CLOSED;
    if (s->q.stop == ASTAR_STOP_OPTIMAL)
      heap_remove(s, &s->byg, (size_t)s->gpos[top.node], 1);
    s->st.expanded++;
    done++;
    if ((s->q.record_trace || s->q.record_visited) &&
        (rc = record(s, top.node, key_f(top.fkey))) != ASTAR_OK)
      return s->status = rc;
    if (top.node == s->goal && s->q.stop == ASTAR_STOP_EXPAND)
      return s->status = ASTAR_FOUND;
    if (s->reverse) rc = s->topo == TOPO_GRAPH ? expand_graph_rev(s, top.node)
                                               : expand_grid_rev(s, top.node);
    else if (s->topo == TOPO_GRAPH) rc = expand_graph(s, top.node);
    else if (plain) rc = expand_grid_plain(s, top.node);
    else rc = expand_grid_general(s, top.node);
    if (rc != ASTAR_OK) return s->status = rc;
  }
}

/* ------------------------------------------------------------------------ */
/* results                                                                    */
/* ------------------------------------------------------------------------ */

int astar_search_status(const astar_search *s) { return s->status; }
const astar_stats *astar_search_stats(const astar_search *s) { return &s->st; }

int32_t astar_search_error_node(const astar_search *s, double *value) {
  if (value) *value = s->err_value;
  return s->err_node;
}

static int32_t internal_id(const astar_search *s, int32_t id) {
  if (s->topo == TOPO_GRAPH) return id >= 0 && id < s->graph->nn ? id : -1;
  if (s->topo == TOPO_GRID) {
    const astar_grid *gr = s->grid;
    if (id < 0 || id >= gr->w * gr->h) return -1;
    return (id / gr->w + 1) * gr->pw + id % gr->w + 1;
  }
  return -1;
}

static int32_t parent_node(const astar_search *s, int32_t v) {
  int32_t ref = s->parent[v];
    if (ref < 0) return -1;
  return s->topo == TOPO_GRID ? v - s->grid->off[ref] : s->graph->edges[ref].from;
}

static int is_reached(const astar_search *s, int32_t v) {
  return v >= 0 && (size_t)v < s->ns_init && s->ns[v].stamp == s->gen &&
         s->status != ASTAR_ESTATE;
}

int32_t astar_search_path_length(const astar_search *s, int32_t to) {
  int32_t v = internal_id(s, to), len = 0;
  if (!is_reached(s, v)) return 0;
  for (; v >= 0; v = parent_node(s, v)) len++;
  return len;
}

/* Step cost into v along its parent link, as the search computed it. */
static double incoming(const astar_search *s, int32_t v) {
  int32_t ref = s->parent[v];
  double c = 0;
  if (s->use_cc) return s->cc[v];
  if (s->topo == TOPO_GRAPH) graph_step(s, s->graph->edges[ref].cost, ref, &c);
  else grid_step(s, v, ref, grid_external(s, v), &c);
  return c;
}

int32_t astar_search_path(const astar_search *s, int32_t to, int32_t *nodes,
                          int32_t *edges, double *cost) {
  int32_t v = internal_id(s, to), len, i;
  double sum = 0;
  if (!is_reached(s, v)) return 0;
  len = astar_search_path_length(s, to);
  /* internal ids first (backwards), so the costs can be summed forwards: the
  ** order in which the search accumulated g, so an intact chain sums to g
  ** exactly; a chain whose ancestors improved after it was built (possible
  ** when an inadmissible heuristic stops the search early) sums to its own,
  ** lower, true cost */
  for (i = len - 1; i >= 0; i--, v = parent_node(s, v)) nodes[i] = v;
  for (i = 1; i < len; i++) {
        if (edges) edges[i - 1] = s->parent[nodes[i]];
    sum += incoming(s, nodes[i]);
  }
  if (s->topo == TOPO_GRID)
    for (i = 0; i < len; i++) nodes[i] = grid_external(s, nodes[i]);
  if (cost) *cost = sum;
  return len;
}

int32_t astar_search_link(const astar_search *s, int32_t node) {
  int32_t v = internal_id(s, node);
  return is_reached(s, v) ? s->parent[v] : -1;
}

int32_t astar_search_goal(const astar_search *s) {
  if (s->topo == TOPO_GRID) return s->q.goal;
  return s->topo == TOPO_GRAPH ? s->goal : -1;
}

int32_t astar_search_best(const astar_search *s) {
  if (s->best < 0) return -1;
  return s->topo == TOPO_GRID ? grid_external(s, s->best) : s->best;
}

double astar_search_g(const astar_search *s, int32_t node) {
  int32_t v = internal_id(s, node);
  return is_reached(s, v) ? s->ns[v].g : -1;
}

int astar_search_h(astar_search *s, int32_t node, double *h) {
  int32_t v = internal_id(s, node);
  double x = 0, y = 0;
  if (v < 0 || s->status == ASTAR_ESTATE) return ASTAR_EINVAL;
  if (s->topo == TOPO_GRID) {
    x = node % s->grid->w;
    y = node / s->grid->w;
  }
  if (s->q.heuristic == ASTAR_H_CALLBACK) {
    int32_t goal = s->topo == TOPO_GRID ? s->q.goal : s->goal;
    if (s->q.heuristic_fn(s->q.heuristic_ctx, node, goal, h)) return ASTAR_ECALLBACK;
    if (!(*h >= 0) || !isfinite(*h)) return record_error(s, ASTAR_EHEURISTIC, node, *h);
    return ASTAR_OK;
  }
  *h = s->topo == TOPO_GRAPH ? builtin_h(s, s->graph->nodes[v].x, s->graph->nodes[v].y,
                                         s->graph->nodes[v].z)
                             : grid_h(s, x, y);
  return ASTAR_OK;
}

/* One step u -> v of cost c for the consistency check. */
static void audit_step(astar_audit *out, const double *hv, int32_t u, int32_t v,
                       double c) {
  double excess;
  if (hv[u] < 0 || hv[v] < 0) return; /* an end the heuristic was not asked */
  out->steps++;
  excess = hv[u] - c - hv[v];
  if (excess > 1e-9 * (1 + hv[u])) {
    out->inconsistent++;
    if (excess > out->max_inconsistency) out->max_inconsistency = excess;
  }
}

int astar_search_audit(astar_search *s, const astar_search *d, astar_audit *out) {
  int32_t n, i;
  double *hv;
  int rc = ASTAR_OK;
  memset(out, 0, sizeof *out);
  if (s->status == ASTAR_ESTATE || d->status != ASTAR_FOUND || !d->reverse ||
      s->topo != d->topo || s->graph != d->graph || s->grid != d->grid)
    return ASTAR_EINVAL;
  n = s->topo == TOPO_GRAPH ? s->graph->nn : s->grid->w * s->grid->h;
  if (astar__resize(s->alloc, s->ud, (void **)&s->scratch, &s->scratch_cap,
                    (size_t)n, sizeof(double)))
    return ASTAR_ENOMEM;
  hv = s->scratch;
  /* h everywhere the goal can be reached from (-1 elsewhere) */
  for (i = 0; i < n && rc == ASTAR_OK; i++) {
    double dist = astar_search_g(d, i);
    hv[i] = -1;
    if (dist < 0) continue;
    if ((rc = astar_search_h(s, i, &hv[i])) != ASTAR_OK) break;
    out->checked++;
    if (hv[i] > dist + 1e-9 * (1 + dist)) {
      out->overestimates++;
      if (hv[i] - dist > out->max_overestimate) out->max_overestimate = hv[i] - dist;
    }
  }
  if (rc == ASTAR_OK && s->topo == TOPO_GRAPH) {
    const astar_graph *g = s->graph;
    for (i = 0; i < g->ne; i++) {
      const astar_edge_rec *e = &g->edges[i];
      if (g->nodes[e->from].enabled && g->nodes[e->to].enabled)
        audit_step(out, hv, e->from, e->to, e->cost);
    }
  } else if (rc == ASTAR_OK) {
    const astar_grid *gr = s->grid;
    int32_t x, y, dd;
    for (y = 0; y < gr->h; y++)
      for (x = 0; x < gr->w; x++) {
        int32_t p = (y + 1) * gr->pw + x + 1;
        unsigned m = gr->moves[p];
        for (dd = 0; dd < 8; dd++) {
          int32_t q = p + gr->off[dd];
          double c;
          if (!(m >> dd & 1)) continue;
          c = (dd < 4 ? 1.0 : ASTAR_GRID_DIAG) * (gr->cost ? gr->cost[q] : 1.0);
          audit_step(out, hv, y * gr->w + x, (y + astar__dy[dd]) * gr->w + x + astar__dx[dd], c);
        }
      }
  }
  return rc;
}

size_t astar_search_bytes(const astar_search *s) {
  return sizeof *s + s->ns_cap * sizeof(astar_node) + s->parent_cap * sizeof(int32_t) +
         s->gpos_cap * sizeof(int32_t) + (s->hc_cap + s->cc_cap) * sizeof(double) +
         (s->open.cap + s->byg.cap) * sizeof(astar_heap_item) +
         s->trace_cap * sizeof(astar_trace_entry) + s->visited_cap * sizeof(int32_t) +
         s->scratch_cap * sizeof(double);
}

const astar_trace_entry *astar_search_trace(const astar_search *s, size_t *n) {
  *n = s->ntrace;
  return s->trace;
}

const int32_t *astar_search_visited(const astar_search *s, size_t *n) {
  *n = s->nvisited;
  return s->visited;
}
