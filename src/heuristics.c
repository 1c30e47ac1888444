/*
** heuristics.c -- precomputed heuristics (landmark and cluster tables) and
** the heuristic audit.  Everything here works on any topology through its
** operations and the public search API; nothing calls a callback except the
** audit (the heuristic under audit), whose buffers therefore all live in
** the two search objects the caller passes.
*/
#include <float.h>
#include <math.h>
#include <string.h>

#include "astar_int.h"

struct astar_table {
  astar_alloc_fn alloc;
  void *ud;
  int kind;                   /* astar_table_kind */
  const astar_topology *topo; /* what it serves (its geometry: the bound) */
  uint32_t version;           /* ... as it was then */
  int32_t n, k;               /* nodes; landmarks or clusters */
  double scale;               /* geometric bound multiplier */
  double *table;              /* clusters: k * k costs between clusters */
  int32_t *labels;            /* clusters: n labels, -1 for none */
  float *from, *to;           /* landmarks: k * n costs from and to each */
};

/* ------------------------------------------------------------------------ */
/* building blocks                                                            */
/* ------------------------------------------------------------------------ */

/* A distance search with no modifiers from the given sources, run to the
** end.  Nothing here can call back, so s holds a complete answer or the
** status says why not. */
static int distances(astar_topology *t, astar_search *s, const int32_t *src,
                     size_t n, int reverse) {
  astar_query q;
  int rc;
  astar_query_init(&q, 0, 0);
  if ((rc = astar_search_begin_distances(s, t, src, n, reverse, &q)) != ASTAR_OK) return rc;
  rc = astar_search_step(s, 0);
  return rc == ASTAR_FOUND ? ASTAR_OK : rc;
}

/*
** Farthest-point sampling in path cost: up to k nodes, each the reached node
** farthest from those chosen so far; the first is the far end of a probe
** from the first passable node.  Writes them to out and sets *got (fewer
** than k when fewer nodes are reachable; 0 when no node is passable).
*/
static int farthest_points(astar_topology *t, astar_search *s, int32_t k,
                           int32_t *out, int32_t *got) {
  int32_t n = astar_topology_node_count(t), v, first = -1;
  int probing = 1, rc;
  *got = 0;
  for (v = 0; v < n && first < 0; v++)
    if (astar_topology_passable(t, v) == 1) first = v;
  if (first < 0 || k < 1) return ASTAR_OK;
  out[0] = first;
  *got = 1;
  for (;;) {
    int32_t best = -1;
    double far = 0;
    if ((rc = distances(t, s, out, (size_t)*got, 0)) != ASTAR_OK) return rc;
    for (v = 0; v < n; v++) {
      double g = astar_search_g(s, v);
      if (g > far) {
        far = g;
        best = v;
      }
    }
    if (probing) { /* move the first point to the probe's far end */
      if (best >= 0) out[0] = best;
      probing = 0;
      continue;
    }
    if (*got >= k || best < 0) return ASTAR_OK; /* enough, or nothing farther */
    out[(*got)++] = best;
  }
}

typedef struct scale_ctx {
  const astar_topology *t;
  double scale;
} scale_ctx;

static void scale_step(void *ctx, int32_t from, int32_t to, double cost) {
  scale_ctx *c = (scale_ctx *)ctx;
  double len = c->t->ops->distance(c->t, from, to);
  if (len > 0 && cost / len < c->scale) c->scale = cost / len;
}

/* A table with no data yet: the fields every kind shares.  NULL on ENOMEM. */
static astar_table *table_new(astar_topology *t, int kind, astar_alloc_fn alloc,
                              void *ud) {
  astar_table *h = (astar_table *)astar__mem(alloc, ud, NULL, 0, sizeof *h);
  scale_ctx sc;
  if (h == NULL) return NULL;
  memset(h, 0, sizeof *h);
  h->alloc = alloc;
  h->ud = ud;
  h->kind = kind;
  h->topo = t;
  h->version = t->version;
  h->n = astar_topology_node_count(t);
  /* the smallest cost per unit of the geometric metric over the steps,
  ** capped at 1: the factor that keeps the geometric bound admissible even
  ** where costs undercut geometry */
  sc.t = t;
  sc.scale = 1;
  t->ops->each_step(t, scale_step, &sc);
  h->scale = sc.scale;
  return h;
}

static void *array(astar_table *h, size_t count, size_t size) {
  if (count == 0) count = 1;
  if (count > ((size_t)-1) / size) return NULL;
  return astar__mem(h->alloc, h->ud, NULL, 0, count * size);
}

static size_t table_arrays(const astar_table *h, size_t *k2, size_t *kn) {
  *k2 = (size_t)h->k * (size_t)h->k;
  *kn = (size_t)h->k * (size_t)h->n;
  if (*k2 == 0) *k2 = 1;
  if (*kn == 0) *kn = 1;
  return (size_t)(h->n > 0 ? h->n : 1);
}

void astar_table_free(astar_table *h) {
  size_t k2, kn, n;
  if (h == NULL) return;
  n = table_arrays(h, &k2, &kn);
  if (h->table) astar__mem(h->alloc, h->ud, h->table, k2 * sizeof(double), 0);
  if (h->labels) astar__mem(h->alloc, h->ud, h->labels, n * sizeof(int32_t), 0);
  if (h->from) astar__mem(h->alloc, h->ud, h->from, kn * sizeof(float), 0);
  if (h->to) astar__mem(h->alloc, h->ud, h->to, kn * sizeof(float), 0);
  astar__mem(h->alloc, h->ud, h, sizeof *h, 0);
}

size_t astar_table_bytes(const astar_table *h) {
  size_t k2, kn, n = table_arrays(h, &k2, &kn);
  return sizeof *h + (h->table ? k2 * sizeof(double) : 0) +
         (h->labels ? n * sizeof(int32_t) : 0) +
         (h->from ? 2 * kn * sizeof(float) : 0);
}

int astar_table_kind(const astar_table *h) { return h->kind; }
int32_t astar_table_size(const astar_table *h) { return h->k; }

int astar_table_serves(const astar_table *h, const astar_topology *t) {
  return h->topo == t && h->version == t->version;
}

/* ------------------------------------------------------------------------ */
/* landmarks                                                                  */
/* ------------------------------------------------------------------------ */

int astar_landmarks_build(astar_topology *t, int32_t k, astar_alloc_fn alloc,
                          void *ud, astar_table **out) {
  astar_search *s = NULL;
  astar_table *h = NULL;
  int32_t marks[ASTAR_MAX_LANDMARKS], got, i, v, n;
  int rc = ASTAR_ENOMEM;
  if (k < 1 || k > ASTAR_MAX_LANDMARKS) return ASTAR_EINVAL;
  if ((s = astar_search_new(alloc, ud)) == NULL) goto done;
  if ((rc = farthest_points(t, s, k, marks, &got)) != ASTAR_OK) goto done;
  rc = ASTAR_EINVAL;
  if (got == 0) goto done; /* no passable node */
  rc = ASTAR_ENOMEM;
  if ((h = table_new(t, ASTAR_TABLE_LANDMARKS, alloc, ud)) == NULL) goto done;
  h->k = got;
  n = h->n;
  if ((h->from = (float *)array(h, (size_t)got * (size_t)n, sizeof(float))) == NULL ||
      (h->to = (float *)array(h, (size_t)got * (size_t)n, sizeof(float))) == NULL)
    goto done;
  for (i = 0; i < got; i++) {
    float *from = h->from + (size_t)i * (size_t)n, *to = h->to + (size_t)i * (size_t)n;
    if ((rc = distances(t, s, &marks[i], 1, 0)) != ASTAR_OK) goto done;
    for (v = 0; v < n; v++) {
      double g = astar_search_g(s, v);
      from[v] = g < 0 ? (float)HUGE_VAL : (float)g;
    }
    if ((rc = distances(t, s, &marks[i], 1, 1)) != ASTAR_OK) goto done;
    for (v = 0; v < n; v++) {
      double g = astar_search_g(s, v);
      to[v] = g < 0 ? (float)HUGE_VAL : (float)g;
    }
  }
  rc = ASTAR_OK;
done:
  astar_search_free(s);
  if (rc != ASTAR_OK) {
    astar_table_free(h);
    h = NULL;
  }
  *out = h;
  return rc;
}

/* ------------------------------------------------------------------------ */
/* clusters                                                                   */
/* ------------------------------------------------------------------------ */

/* Automatic labels: k seeds by farthest-point sampling; a node's cluster is
** the seed its cheapest route comes from.  Each unlabelled node's parent
** chain is walked back to a labelled node and then labelled as a whole, so
** every node is walked once.  Sets *k to the seeds found. */
static int auto_labels(astar_topology *t, astar_search *s, int32_t *k,
                       int32_t *seeds, int32_t *labels) {
  int32_t n = astar_topology_node_count(t), v, c, got;
  int rc;
  for (v = 0; v < n; v++) labels[v] = -1;
  if ((rc = farthest_points(t, s, *k, seeds, &got)) != ASTAR_OK) return rc;
  *k = got;
  if (got == 0) return ASTAR_OK;
  if ((rc = distances(t, s, seeds, (size_t)got, 0)) != ASTAR_OK) return rc;
  for (c = 0; c < got; c++) labels[seeds[c]] = c;
  for (v = 0; v < n; v++) {
    int32_t u = v, label;
    if (labels[v] >= 0 || astar_search_g(s, v) < 0) continue;
    while (labels[u] < 0) u = astar_search_parent(s, u);
    label = labels[u];
    for (u = v; labels[u] < 0; u = astar_search_parent(s, u)) labels[u] = label;
  }
  return ASTAR_OK;
}

int astar_clusters_build(astar_topology *t, const int32_t *labels, int32_t k,
                         astar_alloc_fn alloc, void *ud, astar_table **out) {
  astar_search *s = NULL;
  astar_table *h = NULL;
  int32_t *members = NULL, *seeds = NULL, n = astar_topology_node_count(t), v, c;
  size_t i, nn = (size_t)(n > 0 ? n : 1);
  int rc = ASTAR_EINVAL, labelled = 0;
  *out = NULL;
  if (k < 1 || k > ASTAR_MAX_CLUSTERS) return ASTAR_EINVAL;
  for (v = 0; labels && v < n; v++) {
    if (labels[v] < -1 || labels[v] >= k) return ASTAR_EINVAL;
    labelled |= labels[v] >= 0;
  }
  if (labels && !labelled) return ASTAR_EINVAL;
  rc = ASTAR_ENOMEM;
  if ((s = astar_search_new(alloc, ud)) == NULL ||
      (h = table_new(t, ASTAR_TABLE_CLUSTERS, alloc, ud)) == NULL ||
      (h->labels = (int32_t *)array(h, nn, sizeof(int32_t))) == NULL ||
      (members = (int32_t *)astar__mem(alloc, ud, NULL, 0, nn * sizeof(int32_t))) == NULL ||
      (seeds = (int32_t *)astar__mem(alloc, ud, NULL, 0, (size_t)k * sizeof(int32_t))) == NULL)
    goto done;
  if (labels) {
    memcpy(h->labels, labels, (size_t)n * sizeof(int32_t));
  } else {
    if ((rc = auto_labels(t, s, &k, seeds, h->labels)) != ASTAR_OK) goto done;
    rc = ASTAR_EINVAL;
    if (k == 0) goto done; /* no passable node */
  }
  h->k = k;
  rc = ASTAR_ENOMEM;
  if ((h->table = (double *)array(h, (size_t)k * (size_t)k, sizeof(double))) == NULL)
    goto done;
  /* table[a][b]: the cheapest path from a node of a to a node of b, from one
  ** reverse distance search per cluster */
  for (i = 0; i < (size_t)k * (size_t)k; i++) h->table[i] = HUGE_VAL;
  for (c = 0; c < k; c++) {
    int32_t m = 0;
    for (v = 0; v < n; v++)
      if (h->labels[v] == c) members[m++] = v;
    if ((rc = distances(t, s, members, (size_t)m, 1)) != ASTAR_OK) goto done;
    for (v = 0; v < n; v++) {
      int32_t cu = h->labels[v];
      double g = astar_search_g(s, v);
      double *cell = &h->table[(size_t)(cu < 0 ? 0 : cu) * (size_t)k + (size_t)c];
      if (cu >= 0 && g >= 0 && g < *cell) *cell = g;
    }
  }
  rc = ASTAR_OK;
done:
  astar_search_free(s);
  if (members) astar__mem(alloc, ud, members, nn * sizeof(int32_t), 0);
  if (seeds) astar__mem(alloc, ud, seeds, (size_t)k * sizeof(int32_t), 0);
  if (rc != ASTAR_OK) {
    astar_table_free(h);
    h = NULL;
  }
  *out = h;
  return rc;
}

/* ------------------------------------------------------------------------ */
/* evaluation                                                                 */
/* ------------------------------------------------------------------------ */

/*
** The largest of the lower bounds the table has for node -> goal, each
** admissible for the topology's own costs, so the maximum is too.  Landmark
** distances are stored as floats: each term gives back twice their rounding
** error (2^-23 relative) so it stays a lower bound.
*/
int astar_table_heuristic(void *ctx, int32_t node, int32_t goal, double *h) {
  const astar_table *H = (const astar_table *)ctx;
  double b = H->topo->ops->distance(H->topo, node, goal) * H->scale;
  int32_t i;
  if (!(b <= DBL_MAX)) b = 0;
  if (H->kind == ASTAR_TABLE_CLUSTERS) {
    int32_t cu = H->labels[node], cg = H->labels[goal];
    if (cu >= 0 && cg >= 0 && cu != cg) {
      double t = H->table[(size_t)cu * (size_t)H->k + (size_t)cg];
      if (t < HUGE_VAL && t > b) b = t;
    }
  } else {
    for (i = 0; i < H->k; i++) {
      size_t o = (size_t)i * (size_t)H->n;
      double lg = H->from[o + (size_t)goal], ln = H->from[o + (size_t)node];
      double tn = H->to[o + (size_t)node], tg = H->to[o + (size_t)goal];
      if (lg < HUGE_VAL && ln < HUGE_VAL) {
        double v = lg - ln - 2.4e-7 * (lg + ln);
        if (v > b) b = v;
      }
      if (tn < HUGE_VAL && tg < HUGE_VAL) {
        double v = tn - tg - 2.4e-7 * (tn + tg);
        if (v > b) b = v;
      }
    }
  }
  *h = b;
  return 0;
}

/* ------------------------------------------------------------------------ */
/* audit                                                                      */
/* ------------------------------------------------------------------------ */

typedef struct audit_ctx {
  const double *hv; /* h per node, -1 where the heuristic was not asked */
  astar_audit *out;
} audit_ctx;

/* One step u -> v of cost c for the consistency check. */
static void audit_step(void *ctx, int32_t u, int32_t v, double c) {
  audit_ctx *a = (audit_ctx *)ctx;
  double excess;
  if (a->hv[u] < 0 || a->hv[v] < 0) return;
  a->out->steps++;
  excess = a->hv[u] - c - a->hv[v];
  if (excess > 1e-9 * (1 + a->hv[u])) {
    a->out->inconsistent++;
    if (excess > a->out->max_inconsistency) a->out->max_inconsistency = excess;
  }
}

/* Audits s's heuristic (begun, not stepped) against d, finished reverse
** distances to the same goal. */
static int audit_goal(astar_search *s, const astar_search *d, astar_audit *out) {
  int32_t n = astar_topology_node_count(s->topo), i;
  audit_ctx ctx;
  int rc;
  if (astar__resize(s->alloc, s->ud, (void **)&s->scratch, &s->scratch_cap,
                    (size_t)(n > 0 ? n : 1), sizeof(double)))
    return ASTAR_ENOMEM;
  for (i = 0; i < n; i++) {
    double dist = astar_search_g(d, i);
    s->scratch[i] = -1;
    if (dist < 0) continue;
    if ((rc = astar_search_h(s, i, &s->scratch[i])) != ASTAR_OK) return rc;
    out->checked++;
    if (s->scratch[i] > dist + 1e-9 * (1 + dist)) {
      out->overestimates++;
      if (s->scratch[i] - dist > out->max_overestimate)
        out->max_overestimate = s->scratch[i] - dist;
    }
  }
  ctx.hv = s->scratch;
  ctx.out = out;
  s->topo->ops->each_step(s->topo, audit_step, &ctx);
  return ASTAR_OK;
}

int astar_audit_heuristic(astar_topology *t, const astar_query *q,
                          int32_t samples, astar_search *s, astar_search *d,
                          astar_audit *out) {
  int32_t n = astar_topology_node_count(t), open = 0, i, v;
  int rc;
  memset(out, 0, sizeof *out);
  if (samples < 1) return ASTAR_EINVAL;
  if (astar__resize(s->alloc, s->ud, (void **)&s->ids, &s->ids_cap,
                    (size_t)(n > 0 ? n : 1), sizeof(int32_t)))
    return ASTAR_ENOMEM;
  for (v = 0; v < n; v++)
    if (astar_topology_passable(t, v) == 1) s->ids[open++] = v;
  if (open == 0) return ASTAR_EINVAL;
  if (samples > open) samples = open;
  for (i = 0; i < samples; i++) {
    int32_t gi = (int32_t)(((double)i + 0.5) * open / samples);
    int32_t goal = s->ids[gi];
    astar_query a;
    astar_query_init(&a, s->ids[(gi + open / 2) % open], goal);
    a.heuristic = q->heuristic;
    a.heuristic_fn = q->heuristic_fn;
    a.heuristic_ctx = q->heuristic_ctx;
    a.algorithm = ASTAR_ALGO_ASTAR; /* the audit reads every node's g */
    if ((rc = distances(t, d, &goal, 1, 1)) != ASTAR_OK) return rc;
    if ((rc = astar_search_begin(s, t, &a)) != ASTAR_OK) return rc;
    if ((rc = audit_goal(s, d, out)) != ASTAR_OK) return rc;
    out->samples++;
  }
  return ASTAR_OK;
}
