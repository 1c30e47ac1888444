/*
** graph.c -- directed weighted multigraph: node and edge storage, the CSR
** adjacency the search loop reads, and the graph's topology operations.
**
** Edges are appended to one array; the adjacency (first[] offsets into adj[],
** grouped by source node, insertion order kept) is rebuilt lazily on the
** first search after nodes or edges were added, so building a graph edge by
** edge stays O(1) amortised.  set_cost writes through to adj[] (each edge
** record knows its slot), so changing costs between queries costs no rebuild.
** Internal and external node ids are the same.
*/
#include <math.h>
#include <string.h>

#include "engine.h"

typedef struct node_rec {
  double x, y, z;
} node_rec;

typedef struct edge_rec {
  int32_t from, to;
  double cost;
  int32_t tag;
  int32_t slot; /* position in adj[] while the CSR is valid */
} edge_rec;

/* One outgoing edge in the CSR adjacency: the data the search loop reads,
** contiguous per source node. */
typedef struct adj_rec {
  double cost;
  int32_t to, edge;
} adj_rec;

struct astar_graph {
  astar_topology t; /* first: the topology view of the graph */
  int32_t nn, ne;   /* node and edge counts */
  size_t ncap, ecap;
  node_rec *nodes; /* ncap */
  uint8_t *on;     /* ocap: 1 = enabled.  A byte array apart from
                             ** the positions: the loop tests the node each
                             ** edge enters, and 500k nodes then fit in 500 KB
                             ** instead of spreading over the node records */
  size_t ocap;
  int32_t ndisabled; /* when 0 the loop skips that test */
  double max_cost;   /* >= every edge cost (an upper bound: lowering
                             ** a cost leaves it) */
  edge_rec *edges;   /* ecap */
  /* CSR adjacency, rebuilt lazily when nodes or edges were added */
  int csr_valid;
  size_t first_cap, adj_cap;
  int32_t *first; /* nn + 1 offsets into adj */
  adj_rec *adj;   /* ne entries grouped by source, insertion order */
  /* incoming edges, built only for reverse distance searches */
  int rcsr_valid;
  size_t rfirst_cap, redge_cap;
  int32_t *rfirst; /* nn + 1 offsets into redge */
  int32_t *redge;  /* edge ids grouped by destination */
  /* the bounded check of a disabled node (graph_cut): a stamp per node
  ** and the breadth-first queue (CUT_BUDGET) */
  uint32_t *seen, stamp;
  size_t seen_cap, cutq_cap;
  int32_t *cutq;
  /* the change log (astar_graph_track_changes): what version v changed,
  ** at log[v % log_cap] -- a node (its id) or an edge (-1 - its id); every
  ** change of a graph is a version of its own */
  struct graph_change {
    uint32_t version;
    int32_t what;
  } * log;
  size_t log_cap;
  /* the edges shorter than the straight line between their ends (cost
  ** below graph_distance): while there is none, the euclidean estimate is
  ** admissible, and a running search may be repaired (astar__graph_repair) */
  int32_t nshort;
};

#define GRAPH(t) ((astar_graph *)(t))
#define CGRAPH(t) ((const astar_graph *)(t))

static const astar_topo_ops graph_ops;

/* ------------------------------------------------------------------------ */
/* storage                                                                    */
/* ------------------------------------------------------------------------ */

astar_graph *astar_graph_new(astar_alloc_fn alloc, void *ud) {
  astar_graph *g = (astar_graph *)astar__mem(alloc, ud, NULL, 0, sizeof *g);
  if (g == NULL) return NULL;
  memset(g, 0, sizeof *g);
  g->t.ops = &graph_ops;
  g->t.alloc = alloc;
  g->t.ud = ud;
  return g;
}

void astar_graph_free(astar_graph *g) {
  astar_alloc_fn f;
  void *ud;
  if (g == NULL) return;
  f = g->t.alloc;
  ud = g->t.ud;
  astar__release(f, ud, (void **)&g->nodes, &g->ncap, sizeof(node_rec));
  astar__release(f, ud, (void **)&g->on, &g->ocap, 1);
  astar__release(f, ud, (void **)&g->edges, &g->ecap, sizeof(edge_rec));
  astar__release(f, ud, (void **)&g->first, &g->first_cap, sizeof(int32_t));
  astar__release(f, ud, (void **)&g->adj, &g->adj_cap, sizeof(adj_rec));
  astar__release(f, ud, (void **)&g->rfirst, &g->rfirst_cap, sizeof(int32_t));
  astar__release(f, ud, (void **)&g->redge, &g->redge_cap, sizeof(int32_t));
  astar__release(f, ud, (void **)&g->seen, &g->seen_cap, sizeof(uint32_t));
  astar__release(f, ud, (void **)&g->cutq, &g->cutq_cap, sizeof(int32_t));
  astar__release(f, ud, (void **)&g->log, &g->log_cap, sizeof *g->log);
  astar__comp_free(&g->t);
  astar__mem(f, ud, g, sizeof *g, 0);
}

astar_topology *astar_graph_topology(astar_graph *g) { return &g->t; }
int32_t astar_graph_node_count(const astar_graph *g) { return g->nn; }
int32_t astar_graph_edge_count(const astar_graph *g) { return g->ne; }

static int valid_cost(double c) { return c >= 0 && isfinite(c); }

static double graph_distance(const astar_topology *t, int32_t a, int32_t b);

/* Whether edge e is shorter than the straight line between its ends. */
static int edge_short(const astar_graph *g, int32_t e) {
  const edge_rec *r = &g->edges[e];
  return r->cost < graph_distance(&g->t, r->from, r->to);
}

/* A change of the graph: a new version, and its line in the log (what: a
** node, or -1 - an edge). */
static void graph_changed(astar_graph *g, int32_t what) {
  g->t.version++;
  if (g->log_cap > 0) {
    struct graph_change *c = &g->log[g->t.version % g->log_cap];
    c->version = g->t.version;
    c->what = what;
  }
}

int astar_graph_track_changes(astar_graph *g, size_t cap) {
  size_t i;
  if (cap <= g->log_cap) return ASTAR_OK;
  astar__release(g->t.alloc, g->t.ud, (void **)&g->log, &g->log_cap, sizeof *g->log);
  if (astar__grow(g->t.alloc, g->t.ud, (void **)&g->log, &g->log_cap, cap, sizeof *g->log))
    return ASTAR_ENOMEM;
  /* no line yet: line i holds a version that is not i modulo the ring's
  ** size (16 or more), which no lookup there asks for */
  for (i = 0; i < g->log_cap; i++) g->log[i].version = (uint32_t)i + 1;
  return ASTAR_OK;
}

int astar_graph_changes(const astar_graph *g, uint32_t since, int32_t *what, size_t cap,
                        size_t *n) {
  uint32_t want = g->t.version - since, v; /* versions (since, now]: modulo 2^32 */
  size_t found = 0;
  *n = 0;
  if (want == 0) return ASTAR_OK;
  if (want > g->log_cap || want > cap) return ASTAR_EOVERFLOW;
  for (v = since + 1; found < want; v++) {
    const struct graph_change *c = &g->log[v % g->log_cap];
    if (c->version != v) return ASTAR_EOVERFLOW; /* written over, or before the log */
    what[found++] = c->what;
  }
  *n = found;
  return ASTAR_OK;
}

int astar_graph_add_node(astar_graph *g, double x, double y, double z,
                         int32_t *id) {
  node_rec *n;
  if (g->t.lock > 0) return ASTAR_EBUSY;
  if (!isfinite(x) || !isfinite(y) || !isfinite(z)) return ASTAR_EINVAL;
  if (g->nn == INT32_MAX - 1) return ASTAR_EINVAL;
  if (astar__grow(g->t.alloc, g->t.ud, (void **)&g->nodes, &g->ncap,
                  (size_t)g->nn + 1, sizeof(node_rec)) ||
      astar__grow(g->t.alloc, g->t.ud, (void **)&g->on, &g->ocap,
                  (size_t)g->nn + 1, 1))
    return ASTAR_ENOMEM;
  n = &g->nodes[g->nn];
  n->x = x;
  n->y = y;
  n->z = z;
  g->on[g->nn] = 1;
  *id = g->nn++;
  g->csr_valid = g->rcsr_valid = 0;
  graph_changed(g, *id);
  astar__comp_kept(&g->t);
  astar__comp_node(&g->t, *id);
  return ASTAR_OK;
}

int astar_graph_add_edge(astar_graph *g, int32_t from, int32_t to, double cost,
                         int32_t tag, int32_t *id) {
  edge_rec *e;
  if (g->t.lock > 0) return ASTAR_EBUSY;
  if (from < 0 || from >= g->nn || to < 0 || to >= g->nn) return ASTAR_EINVAL;
  if (!valid_cost(cost) || tag < 0) return ASTAR_EINVAL;
  if (g->ne == INT32_MAX - 1) return ASTAR_EINVAL;
  if (astar__grow(g->t.alloc, g->t.ud, (void **)&g->edges, &g->ecap,
                  (size_t)g->ne + 1, sizeof(edge_rec)))
    return ASTAR_ENOMEM;
  e = &g->edges[g->ne];
  e->from = from;
  e->to = to;
  e->cost = cost;
  e->tag = tag;
  e->slot = -1;
  if (cost > g->max_cost) g->max_cost = cost;
  *id = g->ne++;
  g->nshort += edge_short(g, *id);
  g->csr_valid = g->rcsr_valid = 0;
  graph_changed(g, -1 - *id);
  astar__comp_kept(&g->t);
  astar__comp_union(&g->t, from, to); /* weak components: either way */
  return ASTAR_OK;
}

int astar_graph_position(const astar_graph *g, int32_t node, double xyz[3]) {
  if (node < 0 || node >= g->nn) return ASTAR_EINVAL;
  xyz[0] = g->nodes[node].x;
  xyz[1] = g->nodes[node].y;
  xyz[2] = g->nodes[node].z;
  return ASTAR_OK;
}

int astar_graph_edge(const astar_graph *g, int32_t edge, int32_t *from,
                     int32_t *to, double *cost, int32_t *tag) {
  const edge_rec *e;
  if (edge < 0 || edge >= g->ne) return ASTAR_EINVAL;
  e = &g->edges[edge];
  if (from) *from = e->from;
  if (to) *to = e->to;
  if (cost) *cost = e->cost;
  if (tag) *tag = e->tag;
  return ASTAR_OK;
}

int astar_graph_set_cost(astar_graph *g, int32_t edge, double cost) {
  if (g->t.lock > 0) return ASTAR_EBUSY;
  if (edge < 0 || edge >= g->ne || !valid_cost(cost)) return ASTAR_EINVAL;
  if (g->edges[edge].cost == cost) return ASTAR_OK; /* no change, no new version */
  g->nshort -= edge_short(g, edge);
  g->edges[edge].cost = cost;
  g->nshort += edge_short(g, edge);
  if (cost > g->max_cost) g->max_cost = cost;
  if (g->csr_valid) g->adj[g->edges[edge].slot].cost = cost;
  graph_changed(g, -1 - edge);
  astar__comp_kept(&g->t);
  return ASTAR_OK;
}

static int graph_prepare(astar_topology *t, int reverse);

/* How many nodes the check of a disabled node may visit, and how many
** distinct neighbours it takes (more: the next question relabels). */
#define CUT_BUDGET 4096
#define CUT_NEIGHBOURS 32

/* Visits one neighbour v of the search (skipping the disabled node, and
** disabled or seen ones); 0 when the budget is spent. */
static int cut_visit(astar_graph *g, int32_t node, int32_t v, int32_t *qn) {
  if (v == node || !g->on[v] || g->seen[v] == g->stamp) return 1;
  if (*qn == CUT_BUDGET) return 0;
  g->seen[v] = g->stamp;
  g->cutq[(*qn)++] = v;
  return 1;
}

/*
** After `node` was disabled, with the labels current just before: keeps
** them current without a relabel when a bounded search can tell how the
** node's component fell apart.  Its enabled neighbours (either way: weak
** components) are searched from, one group at a time, breadth first over
** both directions without the node: a search that meets every neighbour
** still unplaced proves they stay together; one that runs out of nodes
** first has found a side that split off (a fresh label for it).  A search
** past CUT_BUDGET nodes (or a node of more than CUT_NEIGHBOURS
** neighbours) gives up, and the next question relabels the graph as
** before.  So the cost is paid here, bounded by the budget and the edges
** of the nodes visited; the first check after nodes or edges were added
** builds the two adjacencies (O(edges), what the next search would build).
*/
static void graph_cut(astar_graph *g, int32_t node) {
  astar_topology *t = &g->t;
  int32_t nb[CUT_NEIGHBOURS], k = 0, i, j;
  if (!astar__comp_was_current(t) || graph_prepare(t, 1) != ASTAR_OK) return;
  for (i = g->first[node]; i < g->first[node + 1] + (g->rfirst[node + 1] - g->rfirst[node]);
       i++) {
    int32_t v = i < g->first[node + 1]
                    ? g->adj[i].to
                    : g->edges[g->redge[g->rfirst[node] + i - g->first[node + 1]]].from;
    if (v == node || !g->on[v]) continue;
    for (j = 0; j < k && nb[j] != v; j++) continue;
    if (j < k) continue;
    if (k == CUT_NEIGHBOURS) return;
    nb[k++] = v;
  }
  if (astar__grow(t->alloc, t->ud, (void **)&g->seen, &g->seen_cap, (size_t)g->nn,
                  sizeof(uint32_t)) ||
      astar__grow(t->alloc, t->ud, (void **)&g->cutq, &g->cutq_cap, CUT_BUDGET,
                  sizeof(int32_t)))
    return;
  if (g->stamp == 0 || g->seen_cap < (size_t)g->nn) { /* fresh memory */
    memset(g->seen, 0, g->seen_cap * sizeof(uint32_t));
    g->stamp = 0;
  }
  while (k >= 2) { /* nb[0..k): the neighbours not placed yet */
    int32_t qn = 0, head = 0, met = 1;
    if (++g->stamp == 0) {
      memset(g->seen, 0, g->seen_cap * sizeof(uint32_t));
      g->stamp = 1;
    }
    g->seen[nb[0]] = g->stamp;
    g->cutq[qn++] = nb[0];
    while (head < qn && met < k) {
      int32_t u = g->cutq[head++], e, before = qn;
      for (e = g->first[u]; e < g->first[u + 1]; e++)
        if (!cut_visit(g, node, g->adj[e].to, &qn)) return;
      for (e = g->rfirst[u]; e < g->rfirst[u + 1]; e++)
        if (!cut_visit(g, node, g->edges[g->redge[e]].from, &qn)) return;
      for (; before < qn; before++)
        for (j = 1; j < k; j++)
          if (nb[j] == g->cutq[before]) met++;
    }
    if (met == k) break; /* all together */
    /* a side of its own: everything the search saw */
    if (astar__comp_split(t, g->cutq, (size_t)qn) != ASTAR_OK) return;
    for (i = j = 0; i < k; i++)
      if (g->seen[nb[i]] != g->stamp) nb[j++] = nb[i];
    k = j;
  }
  astar__comp_closed(t, node);
}

int astar_graph_set_enabled(astar_graph *g, int32_t node, int enabled) {
  if (g->t.lock > 0) return ASTAR_EBUSY;
  if (node < 0 || node >= g->nn) return ASTAR_EINVAL;
  enabled = enabled ? 1 : 0;
  if (g->on[node] == enabled) return ASTAR_OK;
  g->on[node] = (uint8_t)enabled;
  g->ndisabled += enabled ? -1 : 1;
  graph_changed(g, node);
  if (enabled) {
    /* enabling only adds steps, all of them this node's: its edges both
    ** ways when the two adjacencies are built (a disable's check builds
    ** them), else one pass over the edges (a relabel would make the same
    ** pass and more) */
    int32_t i;
    astar__comp_kept(&g->t);
    astar__comp_node(&g->t, node);
    if (g->csr_valid && g->rcsr_valid) { /* the node's own edges, both ways */
      for (i = g->first[node]; i < g->first[node + 1]; i++)
        astar__comp_union(&g->t, node, g->adj[i].to);
      for (i = g->rfirst[node]; i < g->rfirst[node + 1]; i++)
        astar__comp_union(&g->t, g->edges[g->redge[i]].from, node);
    } else {
      for (i = 0; i < g->ne; i++)
        if (g->edges[i].from == node || g->edges[i].to == node)
          astar__comp_union(&g->t, g->edges[i].from, g->edges[i].to);
    }
  } else {
    graph_cut(g, node);
  }
  return ASTAR_OK;
}

int astar_graph_enabled(const astar_graph *g, int32_t node) {
  if (node < 0 || node >= g->nn) return ASTAR_EINVAL;
  return g->on[node];
}

/* A step of a path as a search would take it: the edge joins its nodes,
** the node entered is enabled and not forbidden (filter.h, the one reading
** of the query's filter). */
int astar_graph_step_fault(const astar_graph *g, const astar_query *q, int32_t from,
                           int32_t edge, int32_t to) {
  const edge_rec *e = NULL;
  if (to < 0 || to >= g->nn || from < -1 || from >= g->nn) return ASTAR_EINVAL;
  if (from >= 0) {
    if (edge < 0 || edge >= g->ne) return ASTAR_EINVAL;
    e = &g->edges[edge];
    if (e->from != from || e->to != to) return ASTAR_STEP_FAR;
  }
  if (!g->on[to]) return ASTAR_STEP_BLOCKED;
  if (q && filter_field_forbids(q->forbid, to)) return ASTAR_STEP_FORBIDDEN;
  if (q && e && filter_tag_forbids(q, e->tag)) return ASTAR_STEP_TAG;
  return ASTAR_STEP_OK;
}

/*
** Counting sort of the edges by source: first[n] .. first[n+1] - 1 are the
** positions of node n's outgoing edges in adj[], in insertion order (which
** the FIFO tie-break and the seed step tables rely on).  With reverse, the
** incoming edges too, as edge ids (costs are read from the edge records,
** which set_cost keeps current).
*/
static int graph_prepare(astar_topology *t, int reverse) {
  astar_graph *g = GRAPH(t);
  int32_t i, n = g->nn, m = g->ne;
  if (!g->csr_valid) {
    if (astar__grow(t->alloc, t->ud, (void **)&g->first, &g->first_cap,
                    (size_t)n + 1, sizeof(int32_t)) ||
        astar__grow(t->alloc, t->ud, (void **)&g->adj, &g->adj_cap, (size_t)m,
                    sizeof(adj_rec)))
      return ASTAR_ENOMEM;
    memset(g->first, 0, ((size_t)n + 1) * sizeof(int32_t));
    for (i = 0; i < m; i++) g->first[g->edges[i].from + 1]++;
    for (i = 0; i < n; i++) g->first[i + 1] += g->first[i];
    /* place edges; first[from] walks forward and is shifted back afterwards */
    for (i = 0; i < m; i++) {
      edge_rec *e = &g->edges[i];
      int32_t at = g->first[e->from]++;
      g->adj[at].cost = e->cost;
      g->adj[at].to = e->to;
      g->adj[at].edge = i;
      e->slot = at;
    }
    for (i = n; i > 0; i--) g->first[i] = g->first[i - 1];
    g->first[0] = 0;
    g->csr_valid = 1;
  }
  if (reverse && !g->rcsr_valid) {
    if (astar__grow(t->alloc, t->ud, (void **)&g->rfirst, &g->rfirst_cap,
                    (size_t)n + 1, sizeof(int32_t)) ||
        astar__grow(t->alloc, t->ud, (void **)&g->redge, &g->redge_cap, (size_t)m,
                    sizeof(int32_t)))
      return ASTAR_ENOMEM;
    memset(g->rfirst, 0, ((size_t)n + 1) * sizeof(int32_t));
    for (i = 0; i < m; i++) g->rfirst[g->edges[i].to + 1]++;
    for (i = 0; i < n; i++) g->rfirst[i + 1] += g->rfirst[i];
    for (i = 0; i < m; i++) g->redge[g->rfirst[g->edges[i].to]++] = i;
    for (i = n; i > 0; i--) g->rfirst[i] = g->rfirst[i - 1];
    g->rfirst[0] = 0;
    g->rcsr_valid = 1;
  }
  return ASTAR_OK;
}

/* ------------------------------------------------------------------------ */
/* expansions                                                                 */
/* ------------------------------------------------------------------------ */

ASTAR_INLINE double graph_h(const astar_search *s, int32_t v, double x, double y) {
  const node_rec *n;
  (void)x;
  (void)y;
  /* before the position is loaded: Dijkstra would otherwise pay a cache
  ** miss per new node for a value it multiplies by nothing */
  if (s->q.heuristic == ASTAR_H_ZERO) return 0.0;
  n = &CGRAPH(s->topo)->nodes[v];
  return builtin_h(s, n->x, n->y, n->z);
}

/* The tag of edge e when the query has tag factors (its record is not
** read otherwise: one random load less per edge). */
ASTAR_INLINE int32_t edge_tag(const astar_search *s, const astar_graph *g, int32_t e) {
  return s->q.tag_factor ? g->edges[e].tag : 0;
}

/*
** Asks the cache for the adjacency of the nodes the loop will most likely
** expand next (the bypass slot and the heap's top) while this expansion
** runs.  A graph's next node is anywhere in memory, so without it every
** expansion starts with a cache miss on its adjacency: on a 500k-node
** lattice, Dijkstra spent about 40% of its time there and the prefetch
** took a third off the query (bench/boost_graph.cpp).  Grids need none:
** their neighbours are their neighbours in memory.
*/
ASTAR_INLINE void prefetch_next(const astar_search *s, const astar_graph *g) {
  if (g->adj == NULL) return; /* no edges */
  if (s->next.node >= 0) ASTAR_PREFETCH(g->adj + g->first[s->next.node]);
  if (s->open.n > 0) ASTAR_PREFETCH(g->adj + g->first[s->open.a[0].node]);
}

/* The same for reverse searches (distance fields toward sources). */
ASTAR_INLINE void prefetch_next_rev(const astar_search *s, const astar_graph *g) {
  if (g->redge == NULL) return;
  if (s->next.node >= 0) ASTAR_PREFETCH(g->redge + g->rfirst[s->next.node]);
  if (s->open.n > 0) ASTAR_PREFETCH(g->redge + g->rfirst[s->open.a[0].node]);
}

static int expand_graph(astar_search *s, int32_t u) {
  const astar_graph *g = CGRAPH(s->topo);
  const adj_rec *a, *end;
  double gu = node_at(s, u)->g;
  prefetch_next(s, g);
  if (g->first[u] == g->first[u + 1]) return ASTAR_OK; /* adj may be NULL */
  a = g->adj + g->first[u];
  end = g->adj + g->first[u + 1];
  for (; a < end; a++) {
    double c = a->cost;
    int rc;
    if (g->ndisabled && !g->on[a->to]) continue;
    if ((rc = query_step(s, u, a->to, a->edge, edge_tag(s, g, a->edge), &c, 1)) <= 0) {
      if (rc < 0) return rc;
      continue;
    }
    if ((rc = relax_impl(s, a->to, a->to, a->edge, gu + c, c, 0, 0, 0, graph_h)) != ASTAR_OK)
      return rc;
  }
  return ASTAR_OK;
}

/* Reverse expansion: each edge e = (u -> v) into v offers u the cost
** g(v) + c(e); u's link becomes e, the edge to take toward the source.  The
** step enters v, so v's penalty applies; u must itself be passable. */
static int expand_graph_rev(astar_search *s, int32_t v) {
  const astar_graph *g = CGRAPH(s->topo);
  int32_t i, end = g->rfirst[v + 1];
  double gv = node_at(s, v)->g;
  prefetch_next_rev(s, g);
  for (i = g->rfirst[v]; i < end; i++) {
    int32_t e = g->redge[i], u = g->edges[e].from;
    double c = g->edges[e].cost;
    int rc;
    if (!g->on[u] || filter_field_forbids(s->q.forbid, u)) continue;
    if ((rc = query_step(s, u, v, e, edge_tag(s, g, e), &c, 1)) <= 0) {
      if (rc < 0) return rc;
      continue;
    }
    if ((rc = relax_impl(s, u, u, e, gv + c, c, 0, 0, 0, graph_h)) != ASTAR_OK) return rc;
  }
  return ASTAR_OK;
}

/* The fast path (graph_plain and search.c's query_plain agree): no tag
** factors, penalty, forbid or callbacks, weight 1, and no sum of steps can
** overflow; the step's cost is the edge's. */
ASTAR_INLINE int expand_graph_plain(astar_search *s, int32_t u) {
  const astar_graph *g = CGRAPH(s->topo);
  const adj_rec *a, *end;
  double gu = node_at(s, u)->g;
  prefetch_next(s, g);
  if (g->first[u] == g->first[u + 1]) return ASTAR_OK; /* adj may be NULL */
  a = g->adj + g->first[u];
  end = g->adj + g->first[u + 1];
  for (; a < end; a++) {
    int rc;
    if (g->ndisabled && !g->on[a->to]) continue;
    if ((rc = relax_impl(s, a->to, a->to, a->edge, gu + a->cost, a->cost, 0, 0, 1,
                         graph_h)) != ASTAR_OK)
      return rc;
  }
  return ASTAR_OK;
}

static int graph_run(astar_search *s, uint64_t n) {
  return search_loop(s, n, expand_graph);
}

static int graph_run_plain(astar_search *s, uint64_t n) {
  return search_loop(s, n, expand_graph_plain);
}

static int graph_run_reverse(astar_search *s, uint64_t n) {
  return search_loop(s, n, expand_graph_rev);
}

/* ------------------------------------------------------------------------ */
/* topology operations                                                        */
/* ------------------------------------------------------------------------ */

static int32_t graph_count(const astar_topology *t) { return CGRAPH(t)->nn; }
static size_t graph_span(const astar_topology *t) { return (size_t)CGRAPH(t)->nn; }
static int32_t graph_id(const astar_topology *t, int32_t v) {
  (void)t;
  return v;
}

static int graph_passable(const astar_topology *t, int32_t v) {
  return CGRAPH(t)->on[v];
}

static void graph_position(const astar_topology *t, int32_t v, double xyz[3]) {
  astar_graph_position(CGRAPH(t), v, xyz);
}

static int32_t graph_link_from(const astar_topology *t, int32_t v, int32_t link) {
  (void)v;
  return CGRAPH(t)->edges[link].from;
}

static int32_t graph_link_to(const astar_topology *t, int32_t v, int32_t link) {
  (void)v;
  return CGRAPH(t)->edges[link].to;
}

/* The search accepted this very step, so query_step cannot fail here and
** writes nothing into s: the cast only satisfies its signature. */
static int graph_step_cost(const astar_search *s, int32_t v, int32_t link, double *c) {
  const astar_graph *g = CGRAPH(s->topo);
  *c = g->edges[link].cost;
  return query_step((astar_search *)s, g->edges[link].from, v, link,
                    edge_tag(s, g, link), c, 0) > 0;
}

static void graph_each_step(const astar_topology *t, astar_step_visit visit, void *ctx) {
  const astar_graph *g = CGRAPH(t);
  int32_t i;
  for (i = 0; i < g->ne; i++) {
    const edge_rec *e = &g->edges[i];
    if (g->on[e->from] && g->on[e->to])
      visit(ctx, e->from, e->to, e->cost);
  }
}

static double graph_distance(const astar_topology *t, int32_t a, int32_t b) {
  const node_rec *p = &CGRAPH(t)->nodes[a], *q = &CGRAPH(t)->nodes[b];
  double dx = p->x - q->x, dy = p->y - q->y, dz = p->z - q->z;
  return sqrt(dx * dx + dy * dy + dz * dz); /* euclidean */
}

static double graph_estimate(const astar_search *s, int32_t v) {
  return graph_h(s, v, 0, 0);
}

/* The topology's part of the fast path: no path cost can overflow.  A
** node's g is the cost of a simple path (a cycle never improves a g with
** costs >= 0), so at most nn - 1 steps of at most max_cost each. */
static int graph_plain(const astar_topology *t) {
  const astar_graph *g = CGRAPH(t);
  return g->max_cost * (double)g->nn < DBL_MAX / 2;
}

static int graph_default_heuristic(const astar_topology *t) {
  (void)t;
  return ASTAR_H_EUCLIDEAN;
}

static size_t graph_bytes(const astar_topology *t) {
  const astar_graph *g = CGRAPH(t);
  return sizeof *g + g->ncap * sizeof(node_rec) + g->ocap + g->ecap * sizeof(edge_rec) +
         (g->first_cap + g->rfirst_cap + g->redge_cap + g->cutq_cap) * sizeof(int32_t) +
         g->seen_cap * sizeof(uint32_t) + g->log_cap * sizeof *g->log +
         g->adj_cap * sizeof(adj_rec);
}

/* ------------------------------------------------------------------------ */
/* repair of a running search (astar_search_repair on graphs)                 */
/* ------------------------------------------------------------------------ */

/*
** A search's state is a tree: every reached node has a g, the cost of the
** route its parent links spell (a link is the edge a node was reached by:
** forward, the edge into it; reverse, the edge out of it toward the
** sources).  A change touches few steps: a node's every edge (enabled,
** disabled or added: its relaxers reach it again), or one edge (a new cost,
** or added).  The repair
**   1. resets every reached node that was disabled, or whose link is a
**      changed edge, and everything routed through them (their subtrees:
**      a node's children are the far ends of its edges whose link is that
**      edge), taking them off the open list;
**   2. puts back on the open list every surviving reached node that relaxes
**      a reset one (the reset region is relaxed again from its boundary),
**      every reached node that relaxes a changed node and the reached end
**      that expands each changed edge (what got cheaper, opened or was
**      added is relaxed from there); a distance search seeds its sources
**      that are not reached and enabled.
** Afterwards the state is that of an A* search with reopening on the graph
** as it is, which finishes with the costs of a fresh search when the
** estimate is admissible: zero, or euclidean or chebyshev while no edge is
** shorter than the straight line between its ends and no tag factor is
** below 1 (else EINVAL: beginning again).  The cost is the call's: the
** nodes reset (each once) and their edges, a heap operation for each node
** put back; more than half of what the search generated gives up (EINVAL).
** Edges and nodes added since the search began rebuild the adjacencies
** (what the next search would do) and the search's node directory.
*/

/* Whether the query's estimate stays admissible on g as it is. */
static int repair_admissible(const astar_search *s, const astar_graph *g) {
  int32_t t;
  if (s->q.heuristic == ASTAR_H_ZERO) return 1;
  if ((s->q.heuristic != ASTAR_H_EUCLIDEAN && s->q.heuristic != ASTAR_H_CHEBYSHEV) ||
      g->nshort > 0)
    return 0;
  for (t = 1; s->q.tag_factor && t < s->q.tag_count; t++)
    if (s->q.tag_factor[t] < 1.0) return 0;
  return 1;
}

/* Edge e's two ends as the search reads it: x expands it, y is relaxed
** by it (a reached y whose link is e has x for its parent). */
ASTAR_INLINE int32_t edge_x(const astar_search *s, const astar_graph *g, int32_t e) {
  return s->reverse ? g->edges[e].to : g->edges[e].from;
}
ASTAR_INLINE int32_t edge_y(const astar_search *s, const astar_graph *g, int32_t e) {
  return s->reverse ? g->edges[e].from : g->edges[e].to;
}

/* The edges node v expands (relaxers 0: its children are among their far
** ends) or is relaxed by (relaxers 1), as positions [*lo, *hi) in adj[]
** (*out 1: out-edges, forward expansion or reverse relaxers) or redge[]
** (in-edges); repair_edge reads the edge id at one. */
static void repair_edges(const astar_search *s, const astar_graph *g, int32_t v, int relaxers,
                         int32_t *lo, int32_t *hi, int *out) {
  *out = s->reverse == relaxers; /* out-edges: adj */
  *lo = *out ? g->first[v] : g->rfirst[v];
  *hi = *out ? g->first[v + 1] : g->rfirst[v + 1];
}

ASTAR_INLINE int32_t repair_edge(const astar_graph *g, int out, int32_t i) {
  return out ? g->adj[i].edge : g->redge[i];
}

/* Reopens the reached nodes that relax node v (their expansion offers v a
** g again). */
static int repair_relaxers(astar_search *s, const astar_graph *g, int32_t v) {
  int32_t i, lo, hi;
  int out, rc;
  repair_edges(s, g, v, 1, &lo, &hi, &out);
  for (i = lo; i < hi; i++)
    if ((rc = astar__repair_reopen(s, edge_x(s, g, repair_edge(g, out, i)))) != ASTAR_OK)
      return rc;
  return ASTAR_OK;
}

int astar__graph_repair(astar_search *s, const int32_t *changed, size_t nchanged,
                        const int32_t *sources, size_t nsources, size_t *nreset) {
  astar_graph *g = GRAPH(s->topo);
  size_t k, head, nr = 0, most;
  int32_t i, lo, hi;
  int out, rc;
  if (!repair_admissible(s, g)) return ASTAR_EINVAL;
  for (k = 0; k < nchanged; k++)
    if (changed[k] >= g->nn || (changed[k] < 0 && -1 - changed[k] >= g->ne))
      return ASTAR_EINVAL;
  for (k = 0; k < nsources; k++)
    if (sources[k] < 0 || sources[k] >= g->nn) return ASTAR_EINVAL;
  s->status = ASTAR_ESTATE; /* until the state is whole again */
  if ((rc = graph_prepare(s->topo, 1)) != ASTAR_OK || (rc = astar__search_regrow(s)) != ASTAR_OK)
    return rc;
  /* the fast path assumed no sum of steps overflows: a dearer edge may
  ** have ended that */
  if (s->run == graph_run_plain && !graph_plain(s->topo)) s->run = graph_run;
  most = (size_t)(s->st.generated / 2) + 64;
  /* 1. disabled nodes and the ends of changed edges that were reached by
  ** them, then their subtrees */
  for (k = 0; k < nchanged; k++) {
    int32_t v = changed[k] >= 0 ? changed[k] : edge_y(s, g, -1 - changed[k]);
    if (!node_seen(s, v)) continue;
    if (changed[k] >= 0 ? !g->on[v] : *parent_at(s, v) == -1 - changed[k])
      if ((rc = astar__repair_reset(s, v, &nr, most)) != ASTAR_OK) return rc;
  }
  for (head = 0; head < nr; head++) {
    int32_t v = s->ids[head];
    repair_edges(s, g, v, 0, &lo, &hi, &out);
    for (i = lo; i < hi; i++) {
      int32_t e = repair_edge(g, out, i), c = edge_y(s, g, e);
      if (node_seen(s, c) && *parent_at(s, c) == e &&
          (rc = astar__repair_reset(s, c, &nr, most)) != ASTAR_OK)
        return rc;
    }
  }
  /* 2. what the search goes on from */
  for (k = 0; k < nsources; k++) {
    int32_t v = sources[k];
    if (node_seen(s, v) || !g->on[v]) continue;
    if ((rc = relax_impl(s, v, v, -1, 0.0, 0.0, 0, 0, 0, graph_h)) != ASTAR_OK) return rc;
  }
  for (head = 0; head < nr; head++)
    if ((rc = repair_relaxers(s, g, s->ids[head])) != ASTAR_OK) return rc;
  for (k = 0; k < nchanged; k++) {
    rc = changed[k] >= 0 ? repair_relaxers(s, g, changed[k])
                         : astar__repair_reopen(s, edge_x(s, g, -1 - changed[k]));
    if (rc != ASTAR_OK) return rc;
  }
  s->version = s->topo->version;
  s->status = ASTAR_SEARCHING;
  if (nreset) *nreset = nr;
  if (s->goal >= 0) {
    /* the ends, as begin checks them */
    if (!g->on[s->start] || !g->on[s->goal]) {
      s->status = ASTAR_UNREACHABLE;
    } else if (s->start != s->goal) {
      rc = astar_topology_connected(s->topo, s->start, s->goal);
      if (rc < 0) return s->status = rc;
      if (rc == 0) s->status = ASTAR_UNREACHABLE;
    }
    s->reached = node_seen(s, s->goal);
  }
  return ASTAR_OK;
}

static const astar_topo_ops graph_ops = {
    .kind = "graph",
    .noun = "a graph",
    .count = graph_count,
    .span = graph_span,
    .internal = graph_id,
    .external = graph_id,
    .passable = graph_passable,
    .position = graph_position,
    .prepare = graph_prepare,
    .link_from = graph_link_from,
    .link_to = graph_link_to,
    .step_cost = graph_step_cost,
    .each_step = graph_each_step,
    .default_heuristic = graph_default_heuristic,
    .heuristics = HEURISTICS_SPATIAL,
    .estimate = graph_estimate,
    .distance = graph_distance,
    .octile_k = ASTAR_SQRT2 - 1,
    .plain = graph_plain,
    .bytes = graph_bytes,
    .run = {[ASTAR_RUN_GENERAL] = graph_run,
            [ASTAR_RUN_PLAIN] = graph_run_plain,
            [ASTAR_RUN_REVERSE] = graph_run_reverse},
};
