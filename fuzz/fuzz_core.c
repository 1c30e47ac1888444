/*
** fuzz_core.c -- libFuzzer harness for the C core (no Lua).
**
** The input bytes are decoded into a graph (or a grid, or a hex grid) and
** a series of queries: node coordinates, edge costs, weights, factors and callback
** values are taken as raw double bits (NaN, infinities, -0, denormals, huge
** values all occur), ids and enums are taken as raw integers (out of range
** on purpose).  Each query runs through the public API, time-sliced, and the
** results are checked:
**   - a bad input is refused with a status, never a crash;
**   - a found path is a chain of real steps from start to goal through
**     passable nodes, and its step costs, recomputed here independently, sum
**     exactly to the reported cost;
**   - stop = optimal never costs more than stop = expand, and equals the
**     cost Dijkstra (zero heuristic) finds, whatever the heuristic;
**   - unreachable agrees with Dijkstra;
**   - grid queries decode the algorithm too (auto, astar, jps, out of
**     range): "jps" where it cannot serve is refused (EINVAL), and jump
**     point search's paths pass every check above against an A* reference;
**   - a reverse distance search (several sources, the same modifiers, a
**     max_cost) gives every node the cheapest cost to any source, its link
**     is a real step whose cost plus the next node's distance is exactly its
**     own, and max_cost cuts exactly the nodes beyond it;
**   - precomputed tables (landmarks, clusters: automatic or from labels in
**     the input) never overestimate the true cost to a goal, A* with them
**     finds Dijkstra's cost, and the audit finds no overestimate either;
**   - grids: the clearance layer matches a brute-force scan after edits, and
**     sized units' paths hold the unit at every cell and cost the optimum.
** Any violation aborts (a crash libFuzzer reports with the input).
**
** make build/fuzz/fuzz_core builds it with the core (CORE_SRC and LIBS of
** src/sources.mk):
**   clang -g -O1 -fsanitize=fuzzer,address,undefined -Isrc fuzz/fuzz_core.c <CORE_SRC> <LIBS> \
**         -o build/fuzz/fuzz_core
*/
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "astar.h"

/* A cursor over the input; reads past the end give zeros. */
typedef struct input {
  const uint8_t *p;
  size_t n;
} input;

static uint8_t u8(input *in) {
  uint8_t v = 0;
  if (in->n) {
    v = *in->p++;
    in->n--;
  }
  return v;
}

static uint32_t u32(input *in) {
  uint32_t v = 0;
  int i;
  for (i = 0; i < 4; i++) v = v << 8 | u8(in);
  return v;
}

/* Any double, often a tame one: the tame ones let searches find paths. */
static double dbl(input *in) {
  uint8_t mode = u8(in);
  if (mode < 200) return (double)(mode % 20);            /* small costs */
  if (mode < 230) return (double)u8(in) / 16.0;
  {
    uint64_t bits = 0;
    double d;
    int i;
    for (i = 0; i < 8; i++) bits = bits << 8 | u8(in);
    memcpy(&d, &bits, sizeof d);
    return d;                                            /* anything */
  }
}

#define CHECK(c)                                                      \
  do {                                                                \
    if (!(c)) {                                                       \
      fprintf(stderr, "fuzz_core: invariant failed: %s (line %d)\n", #c, __LINE__); \
      abort();                                                        \
    }                                                                 \
  } while (0)

/* Callback values come from a table filled from the input, indexed by node
** or edge, so a run is deterministic and the checker can recompute them. */
typedef struct cbctx {
  double h[64];
  double c[256];
  int abort_at;          /* abort (return non-zero) on this call; -1 never */
  int calls;
} cbctx;

static int fuzz_h(void *ctx, int32_t node, int32_t goal, double *h) {
  cbctx *c = (cbctx *)ctx;
  (void)goal;
  if (c->calls++ == c->abort_at) return 1;
  *h = c->h[(uint32_t)node % 64];
  return 0;
}

static int fuzz_cost(void *ctx, int32_t from, int32_t to, int32_t edge,
                     double cost, double *out) {
  cbctx *c = (cbctx *)ctx;
  double v = c->c[(uint32_t)edge % 256];
  (void)from;
  (void)to;
  if (c->calls++ == c->abort_at) return 1;
  /* a negative table value means "use the cost as given" */
  *out = v < 0 ? cost : v;
  return 0;
}

/* Errors the data may cause (a fuzzed callback value, a cost whose step or
** sum overflows, a penalty that makes a step negative): they make a result
** unknown, never wrong.  Any other error is a finding. */
static int data_error(int st) {
  CHECK(st >= 0 || st == ASTAR_ECOST || st == ASTAR_EOVERFLOW || st == ASTAR_ECALLBACK ||
        st == ASTAR_EHEURISTIC);
  return st < 0;
}

/* Runs q to completion in random slices; returns the final status. */
static int run(astar_search *s, input *in) {
  int st = ASTAR_SEARCHING, guard = 0;
  while (st == ASTAR_SEARCHING && guard++ < 100000) st = astar_search_step(s, 1 + u8(in) % 8);
  CHECK(st != ASTAR_SEARCHING);
  CHECK(astar_search_step(s, 1) == st); /* final statuses stick */
  return st;
}

/* ---- precomputed tables -------------------------------------------------- */

/* Builds a landmark or cluster table on t from the input and checks it
** against Dijkstra (reverse distances to a few goals): no overestimate, and
** A* guided by it (stop = expand, with reopening) finds the optimal cost.
** Then the audit, with the table and with the fuzzed callback heuristic. */
static void fuzz_tables(astar_topology *t, input *in, astar_search *s,
                        astar_search *s2, cbctx *cb) {
  int32_t n = astar_topology_node_count(t), labels[256], k, v, gi;
  astar_table *h = NULL;
  astar_audit a;
  astar_query q;
  int rc, kind = u8(in) % 3;
  if (kind == 0) {
    k = (int32_t)(u8(in) % 6);            /* 0 is refused */
    rc = astar_landmarks_build(t, k, NULL, NULL, &h);
  } else {
    k = (int32_t)(u8(in) % 6);
    if (kind == 2 && n <= 256) {
      for (v = 0; v < n; v++) labels[v] = (int32_t)(u8(in) % 8) - 1; /* -1..6 */
      rc = astar_clusters_build(t, labels, k, NULL, NULL, &h);
    } else {
      rc = astar_clusters_build(t, NULL, k, NULL, NULL, &h);
    }
  }
  if (rc != ASTAR_OK) { /* no passable node, a bad k or label, or costs
                         ** whose sums overflow */
    CHECK(h == NULL);
    if (rc != ASTAR_EINVAL) data_error(rc);
    return;
  }
  CHECK(astar_table_serves(h, t) && astar_table_size(h) >= 1);
  for (gi = 0; gi < 3 && in->n > 0; gi++) {
    int32_t goal = (int32_t)(u8(in) % (uint32_t)n), start = (int32_t)(u8(in) % (uint32_t)n);
    int st;
    astar_query_init(&q, 0, 0);
    CHECK(astar_search_begin_distances(s2, t, &goal, 1, 1, &q) == ASTAR_OK);
    st = run(s2, in);
    if (data_error(st)) continue;         /* a sum overflowed */
    CHECK(st == ASTAR_FOUND);
    for (v = 0; v < n; v++) {
      double hv, d = astar_search_g(s2, v);
      CHECK(astar_table_heuristic(h, v, goal, &hv) == 0 && hv >= 0 && isfinite(hv));
      if (d >= 0) CHECK(hv <= d + 1e-9 * (1 + d));
    }
    astar_query_init(&q, start, goal);
    q.heuristic = ASTAR_H_CALLBACK;
    q.heuristic_fn = astar_table_heuristic;
    q.heuristic_ctx = h;
    CHECK(astar_search_begin(s, t, &q) == ASTAR_OK);
    st = run(s, in);
    if (data_error(st)) continue;
    if (astar_search_g(s2, start) < 0) {
      CHECK(st == ASTAR_UNREACHABLE);
    } else {
      double d = astar_search_g(s2, start), c;
      int32_t nodes[1024];
      CHECK(st == ASTAR_FOUND);
      if (astar_search_path_length(s, goal) <= 1024) {
        astar_search_path(s, goal, nodes, NULL, &c);
        CHECK(fabs(c - d) <= 1e-9 * (1 + d) || !isfinite(d));
      }
    }
  }
  astar_query_init(&q, 0, 0);
  q.heuristic = ASTAR_H_CALLBACK;
  q.heuristic_fn = astar_table_heuristic;
  q.heuristic_ctx = h;
  rc = astar_audit_heuristic(t, &q, 1 + u8(in) % 4, s, s2, &a);
  if (rc == ASTAR_EINVAL) { /* only when no node is passable (labels may
                            ** name blocked cells only) */
    for (v = 0; v < n; v++) CHECK(astar_topology_passable(t, v) == 0);
  } else if (!data_error(rc)) {
    CHECK(rc == ASTAR_OK && a.overestimates == 0 && a.samples >= 1);
  }
  astar_table_free(h);
  /* the fuzzed heuristic: any answer, but a clean one */
  q.heuristic_fn = fuzz_h;
  q.heuristic_ctx = cb;
  cb->calls = 0;
  cb->abort_at = (u8(in) % 4 == 0) ? u8(in) : -1;
  rc = astar_audit_heuristic(t, &q, (int32_t)(u8(in) % 4), s, s2, &a); /* 0: refused */
  if (rc != ASTAR_EINVAL && !data_error(rc)) CHECK(rc == ASTAR_OK && a.samples >= 1);
}

/* ---- graphs -------------------------------------------------------------- */

/* Independent check of a graph path; returns its cost. */
static double check_graph_path(const astar_graph *g, const astar_query *q,
                               cbctx *cb, astar_search *s) {
  int32_t len = astar_search_path_length(s, q->goal), i, nodes[512], edges[512];
  double cost = -1, sum = 0;
  CHECK(len >= 1 && len <= astar_graph_node_count(g));
  CHECK(astar_search_path(s, q->goal, nodes, edges, &cost) == len);
  CHECK(nodes[0] == q->start && nodes[len - 1] == q->goal);
  for (i = 0; i < len; i++) {
    CHECK(astar_graph_enabled(g, nodes[i]) == 1);
    CHECK(!q->forbid || q->forbid[nodes[i]] == 0);
  }
  for (i = 0; i + 1 < len; i++) {
    int32_t from, to, tag;
    double c;
    CHECK(astar_graph_edge(g, edges[i], &from, &to, &c, &tag) == ASTAR_OK);
    CHECK(from == nodes[i] && to == nodes[i + 1]);
    if (q->tag_factor && tag > 0 && tag < q->tag_count) {
      CHECK(q->tag_factor[tag] != ASTAR_FORBID);
      c *= q->tag_factor[tag];
    }
    if (q->penalty) c += q->penalty[nodes[i + 1]] * q->penalty_scale;
    if (q->cost_fn) {
      double v = cb->c[(uint32_t)edges[i] % 256];
      if (v >= 0) c = v;
      CHECK(c != ASTAR_FORBID);
    }
    sum += c;
  }
  CHECK(sum == cost || (isnan(sum) && isnan(cost)));
  return cost;
}

static void fuzz_graph(input *in) {
  astar_graph *g = astar_graph_new(NULL, NULL);
  astar_search *s = astar_search_new(NULL, NULL), *s2 = astar_search_new(NULL, NULL);
  int32_t nn = 1 + u8(in) % 40, ne = u8(in) % 160, i, id;
  double factors[4], penalty[40], forbid[40];
  cbctx cb;
  int nq;
  CHECK(g && s && s2);
  for (i = 0; i < nn; i++) {
    double x = dbl(in), y = dbl(in), z = (u8(in) & 1) ? dbl(in) : 0;
    if (astar_graph_add_node(g, x, y, z, &id) != ASTAR_OK)
      CHECK(astar_graph_add_node(g, 0, 0, 0, &id) == ASTAR_OK); /* refused: keep count */
  }
  CHECK(astar_graph_node_count(g) == nn);
  for (i = 0; i < ne; i++) {
    int32_t a = (int32_t)u32(in) % (nn + 2) - 1, b = u8(in) % nn, before = astar_graph_edge_count(g);
    double c = dbl(in);
    int rc = astar_graph_add_edge(g, a, b, c, u8(in) % 4, &id);
    if (rc != ASTAR_OK) CHECK(astar_graph_edge_count(g) == before);
    else CHECK(c >= 0 && isfinite(c) && a >= 0 && a < nn);
  }
  for (i = 0; i < nn; i++)
    if (u8(in) % 8 == 0) astar_graph_set_enabled(g, i, 0);
  for (i = 0; i < 4; i++) factors[i] = (u8(in) % 4 == 0) ? ASTAR_FORBID : dbl(in);
  for (i = 0; i < nn; i++) {
    penalty[i] = (u8(in) % 4) ? 0 : (double)(u8(in) % 8);
    forbid[i] = (u8(in) % 9) ? 0 : 1;
  }
  for (i = 0; i < 64; i++) cb.h[i] = (u8(in) % 3) ? (double)(u8(in) % 32) : dbl(in);
  for (i = 0; i < 256; i++) cb.c[i] = (u8(in) % 2) ? -1 : dbl(in);
  for (nq = 0; nq < 4 && in->n > 0; nq++) {
    astar_query q, ref;
    int st, st_opt, st_ref;
    astar_query_init(&q, (int32_t)(u32(in) % (uint32_t)(nn + 1)), (int32_t)(u8(in) % (nn + 1)));
    q.heuristic = u8(in) % 9;                 /* 8 is out of range */
    q.weight = (u8(in) % 4) ? (double)(u8(in) % 4) : dbl(in);
    q.stop = u8(in) % 4;                      /* 3 is out of range */
    q.tie_break = u8(in) % 3;
    if (u8(in) & 1) {
      q.tag_factor = factors;
      q.tag_count = u8(in) % 5;
    }
    if (u8(in) % 4 == 0) {
      q.penalty = penalty;
      q.penalty_scale = (double)(u8(in) % 3);
    }
    if (u8(in) % 5 == 0) q.forbid = forbid;
    if (q.heuristic == ASTAR_H_CALLBACK || (u8(in) & 1)) {
      q.heuristic_fn = fuzz_h;
      q.heuristic_ctx = &cb;
    }
    if (u8(in) % 3 == 0) {
      q.cost_fn = fuzz_cost;
      q.cost_ctx = &cb;
    }
    q.record_trace = u8(in) & 1;
    q.record_visited = u8(in) & 1;
    q.track_best = u8(in) & 1;
    cb.calls = 0;
    cb.abort_at = (u8(in) % 16 == 0) ? u8(in) : -1;
    if (astar_search_begin(s, astar_graph_topology(g), &q) != ASTAR_OK) {
      CHECK(astar_search_step(s, 1) < 0); /* nothing to step */
      continue;
    }
    st = run(s, in);
    if (data_error(st)) continue;
    /* the reference: Dijkstra with the same modifiers, in a second search */
    ref = q;
    ref.heuristic = ASTAR_H_ZERO;
    ref.stop = ASTAR_STOP_EXPAND;
    ref.weight = 1;
    ref.record_trace = ref.record_visited = 0;
    cb.abort_at = -1;
    CHECK(astar_search_begin(s2, astar_graph_topology(g), &ref) == ASTAR_OK);
    st_ref = run(s2, in);
    if (data_error(st_ref)) continue;
    if (st_ref != ASTAR_FOUND) {
      CHECK(st_ref == ASTAR_UNREACHABLE && st == ASTAR_UNREACHABLE);
      continue;
    }
    CHECK(st == ASTAR_FOUND);
    {
      double c = check_graph_path(g, &q, &cb, s);
      double d = check_graph_path(g, &ref, &cb, s2);
      astar_query o = q;
      o.stop = ASTAR_STOP_OPTIMAL;
      cb.abort_at = -1;
      CHECK(astar_search_begin(s, astar_graph_topology(g), &o) == ASTAR_OK);
      st_opt = run(s, in);
      /* optimal relaxes more steps than expand: it may meet a bad value */
      if (data_error(st_opt)) continue;
      CHECK(st_opt == ASTAR_FOUND);
      {
        double co = check_graph_path(g, &o, &cb, s);
        double tol = 1e-9 * (fabs(d) + 1);
        if (isfinite(d) && isfinite(co)) {
          CHECK(co <= c + tol || !isfinite(c));
          CHECK(fabs(co - d) <= tol);
          CHECK(c >= d - tol);
        }
      }
    }
  }
  /* distances to up to three sources, checked on a sample of nodes */
  if (in->n > 0) {
    int32_t src[3], ns = 1 + u8(in) % 3, v, k;
    astar_query dq;
    int st;
    for (k = 0; k < ns; k++) src[k] = u8(in) % nn;
    astar_query_init(&dq, 0, 0);
    if (u8(in) & 1) {
      dq.tag_factor = factors;
      dq.tag_count = 4;
    }
    if (u8(in) % 4 == 0) dq.max_cost = (double)(u8(in) % 16);
    /* the fuzzed factors may be invalid: then begin refuses, as it should */
    if (astar_search_begin_distances(s, astar_graph_topology(g), src, (size_t)ns, 1, &dq) != ASTAR_OK) goto done;
    st = run(s, in);
    if (data_error(st)) goto done;
    CHECK(st == ASTAR_FOUND);
    for (v = 0; v < nn && v < 10; v++) {
      double d = astar_search_g(s, v), best = -1;
      int32_t link = astar_search_link(s, v);
      int unknown = 0;
      for (k = 0; k < ns; k++) {
        astar_query rq;
        int32_t nodes[512];
        double c;
        int rst;
        astar_query_init(&rq, v, src[k]);
        rq.heuristic = ASTAR_H_ZERO;
        rq.tag_factor = dq.tag_factor;
        rq.tag_count = dq.tag_count;
        CHECK(astar_search_begin(s2, astar_graph_topology(g), &rq) == ASTAR_OK);
        rst = run(s2, in);
        /* a forward search explores other edges than the reverse one: it
        ** may meet an edge whose cost overflows that the distance search
        ** never touched; then this node's answer is unknown */
        if (data_error(rst)) unknown = 1;
        if (rst != ASTAR_FOUND) continue;
        astar_search_path(s2, src[k], nodes, NULL, &c);
        if (best < 0 || c < best) best = c;
      }
      if (unknown) continue;
      if (best < 0 || best > dq.max_cost) {
        CHECK(d < 0);
        continue;
      }
      CHECK(d >= 0 && fabs(d - best) <= 1e-9 * (1 + best));
      if (link >= 0) { /* a real step, and the costs add up exactly */
        int32_t from, to, tag;
        double c;
        CHECK(astar_graph_edge(g, link, &from, &to, &c, &tag) == ASTAR_OK && from == v);
        if (dq.tag_factor && tag > 0 && tag < dq.tag_count) c *= dq.tag_factor[tag];
        CHECK(d == c + astar_search_g(s, to));
      } else {
        int is_src = 0;
        for (k = 0; k < ns; k++) is_src |= src[k] == v;
        CHECK(is_src && d == 0);
      }
    }
  }
  if (in->n > 0) fuzz_tables(astar_graph_topology(g), in, s, s2, &cb);
done:
  astar_search_free(s);
  astar_search_free(s2);
  astar_graph_free(g);
}

/* ---- grids --------------------------------------------------------------- */

static double check_grid_path(const astar_grid *gr, const astar_query *q,
                              astar_search *s) {
  int32_t len = astar_search_path_length(s, q->goal), i, nodes[1024], dirs[1024];
  int32_t w = astar_grid_width(gr);
  double cost = -1, sum = 0;
  CHECK(len >= 1);
  CHECK(astar_search_path(s, q->goal, nodes, dirs, &cost) == len);
  CHECK(nodes[0] == q->start && nodes[len - 1] == q->goal);
  for (i = 0; i < len; i++) {
    int32_t x = nodes[i] % w, y = nodes[i] / w;
    CHECK(astar_grid_blocked(gr, x, y) == 0);
    CHECK(!q->forbid || q->forbid[nodes[i]] == 0);
    if (i > 0) {
      int32_t px = nodes[i - 1] % w, py = nodes[i - 1] / w, dx = x - px, dy = y - py;
      double c, k = 1;
      int32_t tag;
      CHECK(dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1 && (dx || dy));
      if (dx && dy) {
        int a = !astar_grid_blocked(gr, px + dx, py) && !(q->forbid && q->forbid[py * w + px + dx]);
        int b = !astar_grid_blocked(gr, px, py + dy) && !(q->forbid && q->forbid[(py + dy) * w + px]);
        switch (astar_grid_diagonal(gr)) {
          case ASTAR_DIAG_NEVER: CHECK(0); break;
          case ASTAR_DIAG_NO_CORNER_CUTTING: CHECK(a && b); break;
          case ASTAR_DIAG_ONE_OBSTACLE: CHECK(a || b); break;
          default: break;
        }
      }
      astar_grid_cost(gr, x, y, &c);
      astar_grid_tag(gr, x, y, &tag);
      if (q->tag_factor && tag > 0 && tag < q->tag_count) k = q->tag_factor[tag];
      CHECK(k != ASTAR_FORBID);
      c = (dx && dy ? ASTAR_GRID_DIAG : 1.0) * c * k;
      if (q->penalty) c += q->penalty[nodes[i]] * q->penalty_scale;
      sum += c;
    }
  }
  CHECK(sum == cost);
  return cost;
}

/* The clearance of (x, y) by brute force: the block grows while it fits. */
static int32_t brute_clearance(const astar_grid *gr, int32_t x, int32_t y) {
  int32_t w = astar_grid_width(gr), h = astar_grid_height(gr), k = 0, i, j;
  for (;;) {
    int32_t n = k + 1;
    if (n > ASTAR_MAX_UNIT || x + n > w || y + n > h) return k;
    for (j = 0; j < n; j++)
      for (i = 0; i < n; i++)
        if (astar_grid_blocked(gr, x + i, y + j)) return k;
    k = n;
  }
}

/*
** Sized units: the clearance layer against a brute-force scan after random
** edits (it is kept up incrementally once built), then sized queries: a
** size out of range is refused; every cell of a found path holds the unit
** (its block inside the grid, open, not forbidden); stop = optimal agrees
** with Dijkstra, in reachability and cost.
*/
static void fuzz_sizes(astar_grid *gr, input *in, astar_search *s, astar_search *s2,
                       const double *penalty, const double *forbid, const double *factors) {
  int32_t w = astar_grid_width(gr), h = astar_grid_height(gr), n = w * h, x, y;
  int e, nq;
  for (e = 0; e < 8 && in->n > 0; e++) {
    x = u8(in) % w;
    y = u8(in) % h;
    astar_grid_set_blocked(gr, x, y, u8(in) & 1);
    if (e % 3 == 0)
      for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) CHECK(astar_grid_clearance(gr, x, y) == brute_clearance(gr, x, y));
  }
  for (nq = 0; nq < 3 && in->n > 0; nq++) {
    astar_query q, ref;
    int32_t nodes[256], len, i, a, b;
    double c = -1, d = -1;
    int st, st_ref, rc;
    astar_query_init(&q, (int32_t)(u8(in) % n), (int32_t)(u8(in) % n));
    q.size = u8(in) % 6;                      /* 0 is out of range */
    if (u8(in) & 1) {
      q.tag_factor = factors;
      q.tag_count = 4;
    }
    if (u8(in) & 1) {
      q.penalty = penalty;
      q.penalty_scale = (double)(u8(in) % 3);
    }
    if (u8(in) % 3 == 0) q.forbid = forbid;
    q.stop = ASTAR_STOP_OPTIMAL;
    rc = astar_search_begin(s, astar_grid_topology(gr), &q);
    if (q.size == 0) {
      CHECK(rc == ASTAR_EINVAL);
      continue;
    }
    CHECK(rc == ASTAR_OK);
    st = run(s, in);
    if (data_error(st)) continue;
    ref = q;
    ref.heuristic = ASTAR_H_ZERO;
    ref.stop = ASTAR_STOP_EXPAND;
    CHECK(astar_search_begin(s2, astar_grid_topology(gr), &ref) == ASTAR_OK);
    st_ref = run(s2, in);
    if (data_error(st_ref)) continue;
    CHECK(st == st_ref);
    if (st != ASTAR_FOUND || st_ref != ASTAR_FOUND) continue;
    len = astar_search_path(s, q.goal, nodes, NULL, &c);
    CHECK(len > 0 && nodes[0] == q.start && nodes[len - 1] == q.goal);
    for (i = 0; i < len; i++) {
      x = nodes[i] % w;
      y = nodes[i] / w;
      CHECK(brute_clearance(gr, x, y) >= q.size);
      for (b = 0; q.forbid && b < q.size; b++)
        for (a = 0; a < q.size; a++) CHECK(x + a < w && forbid[(y + b) * w + x + a] == 0);
    }
    astar_search_path(s2, q.goal, nodes, NULL, &d);
    CHECK(fabs(c - d) <= 1e-9 * (d + 1));
  }
}

static void fuzz_grid(input *in) {
  int32_t w = 1 + u8(in) % 16, h = 1 + u8(in) % 16, x, y, i, n;
  astar_grid *gr = astar_grid_new(w, h, u8(in) % 4, NULL, NULL);
  astar_search *s = astar_search_new(NULL, NULL), *s2 = astar_search_new(NULL, NULL);
  double penalty[256], forbid[256], factors[4];
  cbctx cb;
  int nq;
  CHECK(gr && s && s2);
  n = w * h;
  for (i = 0; i < 64; i++) cb.h[i] = (double)(i % 5);
  CHECK(astar_grid_set_blocked(gr, w, 0, 1) == ASTAR_EINVAL);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      uint8_t b = u8(in);
      if (b % 5 == 0) astar_grid_set_blocked(gr, x, y, 1);
      if (b % 7 == 0) astar_grid_set_cost(gr, x, y, dbl(in));   /* may be refused */
      if (b % 11 == 0) astar_grid_set_tag(gr, x, y, u8(in) % 4);
    }
  for (i = 0; i < n; i++) {
    penalty[i] = (u8(in) % 4) ? 0 : (double)(u8(in) % 8);
    forbid[i] = (u8(in) % 9) ? 0 : 1;
  }
  for (i = 0; i < 4; i++) factors[i] = (u8(in) % 4 == 0) ? ASTAR_FORBID : (double)(u8(in) % 5);
  for (nq = 0; nq < 4 && in->n > 0; nq++) {
    astar_query q, ref;
    int st, st_ref, rc;
    astar_query_init(&q, (int32_t)(u32(in) % (uint32_t)(n + 1)), (int32_t)(u8(in) % n));
    q.heuristic = u8(in) % 7;
    q.weight = (double)(u8(in) % 3);
    q.stop = u8(in) % 3;
    q.tie_break = u8(in) % 2;
    if (u8(in) & 1) {
      q.tag_factor = factors;
      q.tag_count = 4;
    }
    if (u8(in) & 1) {
      q.penalty = penalty;
      q.penalty_scale = (double)(u8(in) % 3);
    }
    if (u8(in) % 3 == 0) q.forbid = forbid;
    q.algorithm = u8(in) % 4;                 /* 3 is out of range */
    rc = astar_search_begin(s, astar_grid_topology(gr), &q);
    /* "jps" where it cannot serve is refused, never run as something else */
    if (q.algorithm == ASTAR_ALGO_JPS && astar_jps_refusal(astar_grid_topology(gr), &q))
      CHECK(rc == ASTAR_EINVAL);
    if (q.algorithm > ASTAR_ALGO_JPS) CHECK(rc == ASTAR_EINVAL);
    if (rc != ASTAR_OK) continue;
    st = run(s, in);
    if (data_error(st)) continue;
    ref = q;
    ref.heuristic = ASTAR_H_ZERO;
    ref.stop = ASTAR_STOP_EXPAND;
    ref.weight = 1;
    ref.algorithm = ASTAR_ALGO_ASTAR;         /* the reference never jumps */
    CHECK(astar_search_begin(s2, astar_grid_topology(gr), &ref) == ASTAR_OK);
    st_ref = run(s2, in);
    /* the exhaustive reference may meet a step the query never touched whose
    ** penalty makes it negative (ECOST): then nothing is known */
    if (data_error(st_ref)) continue;
    if (st_ref != ASTAR_FOUND) {
      CHECK(st == ASTAR_UNREACHABLE && st_ref == ASTAR_UNREACHABLE);
      continue;
    }
    CHECK(st == ASTAR_FOUND);
    {
      double c = check_grid_path(gr, &q, s), d = check_grid_path(gr, &ref, s2), co;
      astar_query o = q;
      o.stop = ASTAR_STOP_OPTIMAL;
      CHECK(astar_search_begin(s, astar_grid_topology(gr), &o) == ASTAR_OK);
      st = run(s, in);
      if (data_error(st)) continue; /* it may meet such a step too */
      CHECK(st == ASTAR_FOUND);
      co = check_grid_path(gr, &o, s);
      CHECK(co <= c + 1e-9 * (c + 1));
      CHECK(fabs(co - d) <= 1e-9 * (d + 1));
    }
  }
  if (in->n > 0) {
    int32_t src[2], ns = 1 + u8(in) % 2, v, k;
    astar_query dq;
    int st;
    for (k = 0; k < ns; k++) src[k] = u8(in) % n;
    astar_query_init(&dq, 0, 0);
    if (u8(in) & 1) {
      dq.tag_factor = factors;
      dq.tag_count = 4;
    }
    if (u8(in) & 1) {
      dq.penalty = penalty;
      dq.penalty_scale = (double)(u8(in) % 3);
    }
    if (u8(in) % 3 == 0) dq.forbid = forbid;
    CHECK(astar_search_begin_distances(s, astar_grid_topology(gr), src, (size_t)ns, 1, &dq) == ASTAR_OK);
    st = run(s, in);
    if (!data_error(st)) CHECK(st == ASTAR_FOUND);
    for (v = 0; st == ASTAR_FOUND && v < n && v < 12; v++) {
      double d = astar_search_g(s, v), best = -1;
      int unknown = 0;
      for (k = 0; k < ns; k++) {
        astar_query rq = dq;
        int32_t nodes[1024];
        double c;
        int rst;
        rq.start = v;
        rq.goal = src[k];
        rq.heuristic = ASTAR_H_ZERO;
        CHECK(astar_search_begin(s2, astar_grid_topology(gr), &rq) == ASTAR_OK);
        rst = run(s2, in);
        if (data_error(rst)) unknown = 1; /* as for graphs above */
        if (rst != ASTAR_FOUND) continue;
        astar_search_path(s2, src[k], nodes, NULL, &c);
        if (best < 0 || c < best) best = c;
      }
      if (unknown) continue;
      if (best < 0) {
        CHECK(d < 0);
        continue;
      }
      CHECK(d >= 0 && fabs(d - best) <= 1e-9 * (1 + best));
    }
  }
  if (in->n > 0) fuzz_sizes(gr, in, s, s2, penalty, forbid, factors);
  if (in->n > 0) fuzz_tables(astar_grid_topology(gr), in, s, s2, &cb);
  astar_search_free(s);
  astar_search_free(s2);
  astar_grid_free(gr);
}

/* ---- hex grids ----------------------------------------------------------- */

/* The path of a FOUND hex query: neighbour to neighbour (hex distance 1),
** open cells, its cost the sum of the entered cells' costs under q. */
static double check_hex_path(const astar_grid *hx, const astar_query *q, astar_search *s) {
  int32_t len = astar_search_path_length(s, q->goal), i, nodes[1024];
  int32_t w = astar_grid_width(hx);
  double cost = -1, sum = 0;
  CHECK(len >= 1 && len <= 1024);
  CHECK(astar_search_path(s, q->goal, nodes, NULL, &cost) == len);
  CHECK(nodes[0] == q->start && nodes[len - 1] == q->goal);
  for (i = 1; i < len; i++) {
    int32_t x0 = nodes[i - 1] % w, y0 = nodes[i - 1] / w, x = nodes[i] % w, y = nodes[i] / w;
    int32_t tag;
    double c, k = 1;
    CHECK(astar_hex_distance(hx, x0, y0, x, y) == 1);
    CHECK(astar_grid_blocked(hx, x, y) == 0);
    CHECK(!q->forbid || q->forbid[nodes[i]] == 0);
    astar_grid_cost(hx, x, y, &c);
    astar_grid_tag(hx, x, y, &tag);
    if (q->tag_factor && tag > 0 && tag < q->tag_count) k = q->tag_factor[tag];
    CHECK(k != ASTAR_FORBID);
    c = c * k;
    if (q->penalty) c += q->penalty[nodes[i]] * q->penalty_scale;
    sum += c;
  }
  CHECK(sum == cost);
  return cost;
}

/* Queries with every heuristic (the refused ones must fail at begin) and
** modifier against an exhaustive reference, stop = optimal, distances from
** sources against searches, line of sight symmetric. */
static void fuzz_hex(input *in) {
  int32_t w = 1 + u8(in) % 12, h = 1 + u8(in) % 12, x, y, i, n;
  astar_grid *hx = astar_hex_new(w, h, u8(in) % 4, NULL, NULL);
  astar_search *s = astar_search_new(NULL, NULL), *s2 = astar_search_new(NULL, NULL);
  double penalty[256], forbid[256], factors[4];
  cbctx cb;
  int nq;
  CHECK(hx && s && s2);
  n = w * h;
  for (i = 0; i < 64; i++) cb.h[i] = (double)(i % 5);
  CHECK(astar_grid_set_blocked(hx, w, 0, 1) == ASTAR_EINVAL);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      uint8_t b = u8(in);
      if (b % 5 == 0) astar_grid_set_blocked(hx, x, y, 1);
      if (b % 7 == 0) astar_grid_set_cost(hx, x, y, dbl(in));   /* may be refused */
      if (b % 11 == 0) astar_grid_set_tag(hx, x, y, u8(in) % 4);
    }
  for (i = 0; i < n; i++) {
    penalty[i] = (u8(in) % 4) ? 0 : (double)(u8(in) % 8);
    forbid[i] = (u8(in) % 9) ? 0 : 1;
  }
  for (i = 0; i < 4; i++) factors[i] = (u8(in) % 4 == 0) ? ASTAR_FORBID : (double)(u8(in) % 5);
  for (i = 0; i < 8 && in->n > 0; i++) {
    int32_t a = u8(in) % n, b = u8(in) % n;
    CHECK(astar_grid_line_of_sight(hx, a % w, a / w, b % w, b / w) ==
          astar_grid_line_of_sight(hx, b % w, b / w, a % w, a / w));
  }
  for (nq = 0; nq < 4 && in->n > 0; nq++) {
    astar_query q, ref;
    int st, st_ref, rc;
    astar_query_init(&q, (int32_t)(u32(in) % (uint32_t)(n + 1)), (int32_t)(u8(in) % n));
    q.heuristic = u8(in) % 9;
    q.weight = (double)(u8(in) % 3);
    q.stop = u8(in) % 3;
    q.tie_break = u8(in) % 2;
    if (u8(in) & 1) {
      q.tag_factor = factors;
      q.tag_count = 4;
    }
    if (u8(in) & 1) {
      q.penalty = penalty;
      q.penalty_scale = (double)(u8(in) % 3);
    }
    if (u8(in) % 3 == 0) q.forbid = forbid;
    rc = astar_search_begin(s, astar_grid_topology(hx), &q);
    if (q.heuristic == ASTAR_H_MANHATTAN || q.heuristic == ASTAR_H_OCTILE ||
        q.heuristic == ASTAR_H_CHEBYSHEV) {
      CHECK(rc == ASTAR_EINVAL);
      continue;
    }
    if (rc != ASTAR_OK) continue;
    st = run(s, in);
    if (data_error(st)) continue;
    ref = q;
    ref.heuristic = ASTAR_H_ZERO;
    ref.stop = ASTAR_STOP_EXPAND;
    ref.weight = 1;
    CHECK(astar_search_begin(s2, astar_grid_topology(hx), &ref) == ASTAR_OK);
    st_ref = run(s2, in);
    if (data_error(st_ref)) continue;
    if (st_ref != ASTAR_FOUND) {
      CHECK(st == ASTAR_UNREACHABLE && st_ref == ASTAR_UNREACHABLE);
      continue;
    }
    CHECK(st == ASTAR_FOUND);
    {
      double c = check_hex_path(hx, &q, s), d = check_hex_path(hx, &ref, s2), co;
      astar_query o = q;
      o.stop = ASTAR_STOP_OPTIMAL;
      CHECK(astar_search_begin(s, astar_grid_topology(hx), &o) == ASTAR_OK);
      st = run(s, in);
      if (data_error(st)) continue;
      CHECK(st == ASTAR_FOUND);
      co = check_hex_path(hx, &o, s);
      CHECK(co <= c + 1e-9 * (c + 1));
      CHECK(fabs(co - d) <= 1e-9 * (d + 1));
    }
  }
  if (in->n > 0) {
    int32_t src = u8(in) % n, v;
    astar_query dq;
    int st, reverse = u8(in) & 1;
    astar_query_init(&dq, 0, 0);
    if (u8(in) & 1) {
      dq.tag_factor = factors;
      dq.tag_count = 4;
    }
    if (u8(in) % 3 == 0) dq.forbid = forbid;
    CHECK(astar_search_begin_distances(s, astar_grid_topology(hx), &src, 1, reverse, &dq) ==
          ASTAR_OK);
    st = run(s, in);
    if (!data_error(st)) CHECK(st == ASTAR_FOUND);
    for (v = 0; st == ASTAR_FOUND && v < n && v < 12; v++) {
      double d = astar_search_g(s, v), c;
      astar_query rq = dq;
      int32_t nodes[1024];
      int rst;
      rq.start = reverse ? v : src;
      rq.goal = reverse ? src : v;
      rq.heuristic = ASTAR_H_ZERO;
      CHECK(astar_search_begin(s2, astar_grid_topology(hx), &rq) == ASTAR_OK);
      rst = run(s2, in);
      if (data_error(rst)) continue;
      if (rst != ASTAR_FOUND) {
        CHECK(d < 0);
        continue;
      }
      astar_search_path(s2, rq.goal, nodes, NULL, &c);
      CHECK(d >= 0 && fabs(d - c) <= 1e-9 * (1 + c));
    }
  }
  if (in->n > 0) fuzz_tables(astar_grid_topology(hx), in, s, s2, &cb);
  astar_search_free(s);
  astar_search_free(s2);
  astar_grid_free(hx);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  input in;
  in.p = data;
  in.n = size;
  uint8_t kind = u8(&in);
  if (kind & 1) fuzz_grid(&in);   /* the committed corpus: odd grid, even graph */
  else if (kind & 2) fuzz_hex(&in);
  else fuzz_graph(&in);
  return 0;
}
