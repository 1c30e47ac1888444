/*
** graph.c -- directed weighted multigraph: node and edge storage, and the
** CSR adjacency the search loop reads.
**
** Edges are appended to one array; the adjacency (first[] offsets into adj[],
** grouped by source node, insertion order kept) is rebuilt lazily on the
** first search after nodes or edges were added, so building a graph edge by
** edge stays O(1) amortised.  set_cost writes through to adj[] (each edge
** record knows its slot), so changing costs between queries costs no rebuild.
*/
#include <math.h>
#include <string.h>

#include "astar_int.h"

astar_graph *astar_graph_new(astar_alloc_fn alloc, void *ud) {
  astar_graph *g = (astar_graph *)astar__mem(alloc, ud, NULL, 0, sizeof *g);
  if (g == NULL) return NULL;
  memset(g, 0, sizeof *g);
  g->alloc = alloc;
  g->ud = ud;
  return g;
}

void astar_graph_free(astar_graph *g) {
  if (g == NULL) return;
  astar__mem(g->alloc, g->ud, g->nodes, g->ncap * sizeof(astar_node_rec), 0);
  astar__mem(g->alloc, g->ud, g->edges, g->ecap * sizeof(astar_edge_rec), 0);
  astar__mem(g->alloc, g->ud, g->first, g->first_cap * sizeof(int32_t), 0);
    astar__mem(g->alloc, g->ud, g->adj, g->adj_cap * sizeof(astar_adj), 0);
  astar__mem(g->alloc, g->ud, g->rfirst, g->rfirst_cap * sizeof(int32_t), 0);
  astar__mem(g->alloc, g->ud, g->redge, g->redge_cap * sizeof(int32_t), 0);
  astar__mem(g->alloc, g->ud, g, sizeof *g, 0);
}

void astar_graph_lock(astar_graph *g, int delta) { g->lock += delta; }
int astar_graph_locked(const astar_graph *g) { return g->lock > 0; }
uint32_t astar_graph_version(const astar_graph *g) { return g->version; }

int32_t astar_graph_node_count(const astar_graph *g) { return g->nn; }
int32_t astar_graph_edge_count(const astar_graph *g) { return g->ne; }

static int valid_cost(double c) { return c >= 0 && isfinite(c); }

int astar_graph_add_node(astar_graph *g, double x, double y, double z,
                         int32_t *id) {
  astar_node_rec *n;
  if (g->lock > 0) return ASTAR_EBUSY;
  if (!isfinite(x) || !isfinite(y) || !isfinite(z)) return ASTAR_EINVAL;
  if (g->nn == INT32_MAX - 1) return ASTAR_EINVAL;
  if (astar__grow(g->alloc, g->ud, (void **)&g->nodes, &g->ncap,
                  (size_t)g->nn + 1, sizeof(astar_node_rec)))
    return ASTAR_ENOMEM;
  n = &g->nodes[g->nn];
  n->x = x;
  n->y = y;
  n->z = z;
  n->enabled = 1;
  *id = g->nn++;
  g->csr_valid = g->rcsr_valid = 0;
  g->version++;
  return ASTAR_OK;
}

int astar_graph_add_edge(astar_graph *g, int32_t from, int32_t to, double cost,
                         int32_t tag, int32_t *id) {
  astar_edge_rec *e;
  if (g->lock > 0) return ASTAR_EBUSY;
  if (from < 0 || from >= g->nn || to < 0 || to >= g->nn) return ASTAR_EINVAL;
  if (!valid_cost(cost) || tag < 0) return ASTAR_EINVAL;
  if (g->ne == INT32_MAX - 1) return ASTAR_EINVAL;
  if (astar__grow(g->alloc, g->ud, (void **)&g->edges, &g->ecap,
                  (size_t)g->ne + 1, sizeof(astar_edge_rec)))
    return ASTAR_ENOMEM;
  e = &g->edges[g->ne];
  e->from = from;
  e->to = to;
  e->cost = cost;
  e->tag = tag;
  e->slot = -1;
  *id = g->ne++;
  g->csr_valid = g->rcsr_valid = 0;
  g->version++;
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
  const astar_edge_rec *e;
  if (edge < 0 || edge >= g->ne) return ASTAR_EINVAL;
  e = &g->edges[edge];
  if (from) *from = e->from;
  if (to) *to = e->to;
  if (cost) *cost = e->cost;
  if (tag) *tag = e->tag;
  return ASTAR_OK;
}

int astar_graph_set_cost(astar_graph *g, int32_t edge, double cost) {
  if (g->lock > 0) return ASTAR_EBUSY;
  if (edge < 0 || edge >= g->ne || !valid_cost(cost)) return ASTAR_EINVAL;
  if (g->edges[edge].cost == cost) return ASTAR_OK; /* no change, no new version */
  g->edges[edge].cost = cost;
  if (g->csr_valid) g->adj[g->edges[edge].slot].cost = cost;
  g->version++;
  return ASTAR_OK;
}

int astar_graph_set_enabled(astar_graph *g, int32_t node, int enabled) {
  if (g->lock > 0) return ASTAR_EBUSY;
  if (node < 0 || node >= g->nn) return ASTAR_EINVAL;
  enabled = enabled ? 1 : 0;
  if (g->nodes[node].enabled == enabled) return ASTAR_OK;
  g->nodes[node].enabled = enabled;
  g->version++;
  return ASTAR_OK;
}

int astar_graph_enabled(const astar_graph *g, int32_t node) {
  if (node < 0 || node >= g->nn) return ASTAR_EINVAL;
  return g->nodes[node].enabled;
}

/*
** Counting sort of the edges by source: first[n] .. first[n+1] - 1 are the
** positions of node n's outgoing edges in adj[], in insertion order (which
** the FIFO tie-break and the seed step tables rely on).
*/
int astar__graph_prepare(astar_graph *g) {
  int32_t i, n = g->nn, m = g->ne;
  if (g->csr_valid) return ASTAR_OK;
  if (astar__grow(g->alloc, g->ud, (void **)&g->first, &g->first_cap,
                  (size_t)n + 1, sizeof(int32_t)) ||
      astar__grow(g->alloc, g->ud, (void **)&g->adj, &g->adj_cap,
                  (size_t)m, sizeof(astar_adj)))
    return ASTAR_ENOMEM;
  memset(g->first, 0, ((size_t)n + 1) * sizeof(int32_t));
  for (i = 0; i < m; i++) g->first[g->edges[i].from + 1]++;
  for (i = 0; i < n; i++) g->first[i + 1] += g->first[i];
  /* place edges; first[from] walks forward and is shifted back afterwards */
  for (i = 0; i < m; i++) {
    astar_edge_rec *e = &g->edges[i];
    int32_t at = g->first[e->from]++;
    g->adj[at].cost = e->cost;
    g->adj[at].to = e->to;
    g->adj[at].edge = i;
    e->slot = at;
  }
  for (i = n; i > 0; i--) g->first[i] = g->first[i - 1];
    g->first[0] = 0;
  g->csr_valid = 1;
  return ASTAR_OK;
}

/* The incoming edges of each node, as edge ids (costs are read from the edge
** records, which set_cost keeps current). */
int astar__graph_prepare_reverse(astar_graph *g) {
  int32_t i, n = g->nn, m = g->ne;
  if (g->rcsr_valid) return ASTAR_OK;
  if (astar__grow(g->alloc, g->ud, (void **)&g->rfirst, &g->rfirst_cap,
                  (size_t)n + 1, sizeof(int32_t)) ||
      astar__grow(g->alloc, g->ud, (void **)&g->redge, &g->redge_cap,
                  (size_t)m, sizeof(int32_t)))
    return ASTAR_ENOMEM;
  memset(g->rfirst, 0, ((size_t)n + 1) * sizeof(int32_t));
  for (i = 0; i < m; i++) g->rfirst[g->edges[i].to + 1]++;
  for (i = 0; i < n; i++) g->rfirst[i + 1] += g->rfirst[i];
  for (i = 0; i < m; i++) g->redge[g->rfirst[g->edges[i].to]++] = i;
  for (i = n; i > 0; i--) g->rfirst[i] = g->rfirst[i - 1];
  g->rfirst[0] = 0;
  g->rcsr_valid = 1;
  return ASTAR_OK;
}
