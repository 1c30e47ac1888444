/*
** components.c -- connected components of a topology under its own
** passability (blocked cells and the diagonal rule, disabled nodes; weak
** components of directed graphs), for any topology: labels are computed
** through the topology's each_step operation, so a topology written later
** gets them without a line of its own.
**
** Representation.  A topology known to be one component (a new grid) is
** `uniform`: no arrays at all.  Otherwise label[v] (external ids) is v's
** component label, -1 for
** an impassable node.  Labels are dense after a relabel; opening a node
** afterwards gives it a fresh label and merges labels through a small
** union-find over labels (up[], union by size, so a find is O(log k) and
** never writes: concurrent readers of a read-locked topology are safe).
**
** Currency.  The labels describe version `version` of the topology.  A
** mutator that only added steps (opened a cell, enabled a node, added an
** edge, changed a cost) calls astar__comp_kept right after bumping the
** topology's version, then astar__comp_union for each new step; any other
** change (a closed cell, a disabled node) leaves the versions apart, and
** the next question relabels everything: a split may cost a relabel when
** next needed, never a wrong answer.  A topology that never calls the two
** helpers is simply relabelled after every change.
*/
#include <string.h>

#include "astar_int.h"

void astar__comp_free(astar_topology *t) {
  astar_comps *c = &t->comps;
  if (t->ops->conn) t->ops->conn->free(t);
  astar__release(t->alloc, t->ud, (void **)&c->label, &c->label_cap, sizeof(int32_t));
  astar__release(t->alloc, t->ud, (void **)&c->up, &c->up_cap, sizeof(int32_t));
  astar__release(t->alloc, t->ud, (void **)&c->size, &c->size_cap, sizeof(int32_t));
  c->valid = 0;
}

size_t astar__comp_bytes(const astar_topology *t) {
  const astar_comps *c = &t->comps;
  return (c->label_cap + c->up_cap + c->size_cap) * sizeof(int32_t) +
         (t->ops->conn ? t->ops->conn->bytes(t) : 0);
}

void astar__comp_uniform(astar_topology *t) {
  t->comps.valid = t->comps.uniform = 1;
  t->comps.version = t->version;
}

static int comp_current(const astar_topology *t) {
  return t->comps.valid && t->comps.version == t->version;
}

/* each_step visitor of the relabel: union by index over label[] used as a
** parent array (a root is the smallest id of its set, so every parent is
** smaller than its child). */
static int32_t comp_root(int32_t *p, int32_t v) {
  while (p[v] != v) {
    p[v] = p[p[v]]; /* path halving: parents stay smaller */
    v = p[v];
  }
  return v;
}

static void comp_link_step(void *ctx, int32_t from, int32_t to, double cost) {
  int32_t *p = (int32_t *)ctx, a, b;
  (void)cost;
  if (p[from] < 0 || p[to] < 0) return;
  a = comp_root(p, from);
  b = comp_root(p, to);
  if (a < b) p[b] = a;
  else if (b < a) p[a] = b;
}

/* Labels every node from scratch: O(nodes + steps). */
static int comp_relabel(astar_topology *t) {
  astar_comps *c = &t->comps;
  const astar_topo_ops *ops = t->ops;
  int32_t n = ops->count(t), v, k = 0;
  c->valid = c->uniform = 0;
  if (astar__resize(t->alloc, t->ud, (void **)&c->label, &c->label_cap,
                    (size_t)n + 1, sizeof(int32_t)))
    return ASTAR_ENOMEM;
  for (v = 0; v < n; v++) c->label[v] = ops->passable(t, ops->internal(t, v)) ? v : -1;
  ops->each_step(t, comp_link_step, c->label);
  /* in id order every parent (smaller) already holds its final label */
  for (v = 0; v < n; v++) {
    int32_t p = c->label[v];
    if (p < 0) continue;
    c->label[v] = p == v ? k++ : c->label[p];
  }
  if (astar__resize(t->alloc, t->ud, (void **)&c->up, &c->up_cap, (size_t)k + 1,
                    sizeof(int32_t)) ||
      astar__resize(t->alloc, t->ud, (void **)&c->size, &c->size_cap, (size_t)k + 1,
                    sizeof(int32_t)))
    return ASTAR_ENOMEM;
  for (v = 0; v < k; v++) {
    c->up[v] = v;
    c->size[v] = 1;
  }
  c->nlabels = k;
  c->count = n;
  c->version = t->version;
  c->valid = 1;
  c->relabels++;
  return ASTAR_OK;
}

int astar__comp_refresh(astar_topology *t) {
  if (t->ops->conn) return t->ops->conn->refresh(t);
  return comp_current(t) ? ASTAR_OK : comp_relabel(t);
}

/* The root label of label l: no writes (see the header). */
static int32_t comp_find(const astar_comps *c, int32_t l) {
  while (c->up[l] != l) l = c->up[l];
  return l;
}

void astar__comp_kept(astar_topology *t) {
  astar_comps *c = &t->comps;
  if (c->valid && c->version + 1 == t->version) c->version = t->version;
}

void astar__comp_touch(astar_topology *t) {
  astar_comps *c = &t->comps;
  if (c->valid && c->version == t->version) c->version = t->version - 1;
}

/* A fresh label (one more set in the union-find); -1 when out of memory,
** which drops the labels (the next question relabels). */
static int32_t comp_fresh(astar_topology *t) {
  astar_comps *c = &t->comps;
  int32_t l = c->nlabels;
  if (l == INT32_MAX - 1 || (size_t)l > 2 * (size_t)c->count + 1024 ||
      astar__grow(t->alloc, t->ud, (void **)&c->up, &c->up_cap, (size_t)l + 1,
                  sizeof(int32_t)) ||
      astar__grow(t->alloc, t->ud, (void **)&c->size, &c->size_cap, (size_t)l + 1,
                  sizeof(int32_t))) {
    c->valid = 0;
    return -1;
  }
  c->up[l] = l;
  c->size[l] = 1;
  c->nlabels++;
  return l;
}

void astar__comp_node(astar_topology *t, int32_t v) {
  astar_comps *c = &t->comps;
  int32_t n = t->ops->count(t);
  if (!comp_current(t)) return;
  if (c->uniform) { /* a node of its own: one component no more */
    c->valid = c->uniform = 0;
    return;
  }
  if ((size_t)n + 1 > c->label_cap &&
      astar__grow(t->alloc, t->ud, (void **)&c->label, &c->label_cap, (size_t)n + 1,
                  sizeof(int32_t))) {
    c->valid = 0;
    return;
  }
  c->count = n;
  if (!t->ops->passable(t, t->ops->internal(t, v))) {
    c->label[v] = -1;
    return;
  }
  c->label[v] = comp_fresh(t);
}

int astar__comp_was_current(const astar_topology *t) {
  const astar_comps *c = &t->comps;
  return c->valid && !c->uniform && c->version + 1 == t->version && !t->ops->conn;
}

void astar__comp_closed(astar_topology *t, int32_t v) {
  t->comps.label[v] = -1;
  t->comps.version = t->version;
}

int32_t astar__comp_split(astar_topology *t, const int32_t *side, size_t n) {
  int32_t l = comp_fresh(t);
  size_t i;
  if (l < 0) return ASTAR_ENOMEM;
  for (i = 0; i < n; i++) t->comps.label[side[i]] = l;
  return ASTAR_OK;
}

void astar__comp_union(astar_topology *t, int32_t a, int32_t b) {
  astar_comps *c = &t->comps;
  int32_t la, lb;
  if (!comp_current(t) || c->uniform || a >= c->count || b >= c->count) return;
  if (c->label[a] < 0 || c->label[b] < 0) return;
  la = comp_find(c, c->label[a]);
  lb = comp_find(c, c->label[b]);
  if (la == lb) return;
  if (c->size[la] < c->size[lb]) {
    int32_t x = la;
    la = lb;
    lb = x;
  }
  c->up[lb] = la;
  c->size[la] += c->size[lb];
}

int astar_topology_connected(astar_topology *t, int32_t a, int32_t b) {
  int32_t n = t->ops->count(t), la, lb;
  int rc;
  if (a < 0 || a >= n || b < 0 || b >= n) return ASTAR_EINVAL;
  if (t->ops->conn) return t->ops->conn->connected(t, a, b);
  if ((rc = astar__comp_refresh(t)) != ASTAR_OK) return rc;
  if (t->comps.uniform) {
    const astar_topo_ops *ops = t->ops;
    return ops->passable(t, ops->internal(t, a)) && ops->passable(t, ops->internal(t, b));
  }
  la = t->comps.label[a];
  lb = t->comps.label[b];
  if (la < 0 || lb < 0) return 0;
  return comp_find(&t->comps, la) == comp_find(&t->comps, lb);
}

int astar_topology_components_current(const astar_topology *t) {
  return t->ops->conn ? t->ops->conn->current(t) : comp_current(t);
}

int astar_topology_components_refresh(astar_topology *t) { return astar__comp_refresh(t); }

/* each_step visitor of the generic would_disconnect: union-find over
** external ids, skipping the node supposed impassable. */
typedef struct wd_ctx {
  int32_t *p, skip;
} wd_ctx;

static void wd_link_step(void *ctx, int32_t from, int32_t to, double cost) {
  wd_ctx *w = (wd_ctx *)ctx;
  (void)cost;
  if (from == w->skip || to == w->skip || w->p[from] < 0 || w->p[to] < 0) return;
  from = comp_root(w->p, from);
  to = comp_root(w->p, to);
  if (from < to) w->p[to] = from;
  else if (to < from) w->p[from] = to;
}

/* The generic answer (topologies without their own components: graphs):
** the points in the node's component are checked against a union-find of
** the topology without the node, one pass over its steps: O(nodes +
** steps). */
static int comp_would_disconnect(astar_topology *t, int32_t node, const int32_t *ids,
                                 size_t n) {
  const astar_topo_ops *ops = t->ops;
  int32_t count = ops->count(t), v, first = -1, *p;
  size_t i, inside = 0;
  int self = 0, out = 0;
  wd_ctx w;
  /* only the points of the node's component can be separated; the node
  ** itself is, from any of them */
  for (i = 0; i < n; i++) {
    if (ids[i] == node) self = 1;
    else if (astar_topology_connected(t, node, ids[i]) == 1) inside++;
  }
  if (self && inside > 0) return 1;
  if (inside < 2) return 0;
  p = (int32_t *)astar__mem(t->alloc, t->ud, NULL, 0, (size_t)count * sizeof(int32_t));
  if (p == NULL) return ASTAR_ENOMEM;
  for (v = 0; v < count; v++) p[v] = v != node && ops->passable(t, ops->internal(t, v)) ? v : -1;
  w.p = p;
  w.skip = node;
  ops->each_step(t, wd_link_step, &w);
  for (i = 0; i < n && !out; i++) {
    if (ids[i] == node || astar_topology_connected(t, node, ids[i]) != 1) continue;
    if (first < 0) first = comp_root(p, ids[i]);
    else if (comp_root(p, ids[i]) != first) out = 1;
  }
  astar__mem(t->alloc, t->ud, p, (size_t)count * sizeof(int32_t), 0);
  return out;
}

int astar_topology_would_disconnect(astar_topology *t, int32_t node, const int32_t *ids,
                                    size_t n) {
  const astar_topo_ops *ops = t->ops;
  int32_t count = ops->count(t);
  size_t i;
  int rc;
  if (node < 0 || node >= count || (n > 0 && ids == NULL)) return ASTAR_EINVAL;
  for (i = 0; i < n; i++)
    if (ids[i] < 0 || ids[i] >= count) return ASTAR_EINVAL;
  if (!ops->passable(t, ops->internal(t, node)) || n < 2) return 0;
  /* a grid never edited has no sectors yet: building them while searches
  ** read the grid (a finalizer during a batch) would write what they
  ** read, so then the pass over the steps answers, writing nothing */
  if (ops->conn && !(t->lock > 0 && t->comps.uniform))
    return ops->conn->would_disconnect(t, node, ids, n);
  if ((rc = astar__comp_refresh(t)) != ASTAR_OK) return rc;
  return comp_would_disconnect(t, node, ids, n);
}
