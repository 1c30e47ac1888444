/*
** lgoals.c -- where units go: the cells nearest a point (nearest_open), n
** distinct cells around a goal (spread), the nearest node of a graph to a
** position (nearest).  Included by lastar.c after lsmooth.c.
**
** Every answer here is a question put to the core (a distance search
** stepped a fixed number of expansions, the unit test the searches use)
** or a scan whose cost is bounded by what it finds: nothing is kept
** between calls.
*/

/* ------------------------------------------------------------------------ */
/* nearest cells by a metric                                                  */
/* ------------------------------------------------------------------------ */

/* The metrics a ring scan measures cells by. */
enum { METRIC_EUCLID, /* between centres: square cells 1 apart, hexagons 1 apart */
       METRIC_STEPS   /* the lattice's step lengths on open ground (octile, Manhattan
                      ** for rule never, hex steps) */
};

/* The distance from (x0, y0) to (x, y), 0-based cells. */
static double cell_metric(const astar_grid *gr, int metric, int32_t x0, int32_t y0, int32_t x,
                          int32_t y) {
  int hex = astar_hex_layout(gr) >= 0;
  if (metric == METRIC_EUCLID) {
    double ax, ay, bx, by;
    if (!hex) {
      ax = x0;
      ay = y0;
      bx = x;
      by = y;
    } else {
      astar_hex_center(astar_hex_layout(gr), x0, y0, &ax, &ay);
      astar_hex_center(astar_hex_layout(gr), x, y, &bx, &by);
    }
    return sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay));
  }
  if (hex) return astar_hex_distance(gr, x0, y0, x, y);
  {
    double dx = fabs((double)x - x0), dy = fabs((double)y - y0);
    if (astar_grid_diagonal(gr) == ASTAR_DIAG_NEVER) return dx + dy;
    return dx > dy ? dx - dy + ASTAR_GRID_DIAG * dy : dy - dx + ASTAR_GRID_DIAG * dx;
  }
}

/* The least distance a cell r columns or rows away (the ring of
** Chebyshev radius r in offset coordinates) can have: square grids r;
** hexagons: r rows are r * sqrt(3) / 2 apart, r columns at least r - 1/2
** (a shoved row); a hex step moves at most one row and one column. */
static double ring_bound(const astar_grid *gr, int metric, int32_t r) {
  double v, c;
  if (metric == METRIC_STEPS || astar_hex_layout(gr) < 0) return r;
  v = r * 0.8660254037844386;
  c = r - 0.5;
  return v < c ? v : (c > 0 ? c : 0);
}

/* Whether the unit of q->size may stand at cell (x, y): the grid's own
** passability through the clearance layer, or under q's filter too
** (filtered: forbid and tag factors) as the searches test it. */
static int cell_fits(astar_grid *gr, const astar_query *q, int filtered, int32_t x, int32_t y) {
  if (filtered)
    return astar_grid_step_fault(gr, q, -1, y * astar_grid_width(gr) + x, NULL) ==
           ASTAR_STEP_OK;
  if (q->size <= 1) return astar_grid_blocked(gr, x, y) == 0;
  return astar_grid_clearance(gr, x, y) >= q->size;
}

/* Distances this close are equal (hexagon centres carry rounding: the six
** neighbours of a cell come out 1 +- 2e-16 away). */
#define DIST_TOL(d) (1e-9 * ((d) > 1 ? (d) : 1))

/*
** The cell nearest (x0, y0) by `metric` where the unit fits, within maxd:
** rings of growing Chebyshev radius, until the ring's least distance
** passes the best found (or maxd, or the ring leaves the grid).  Ties: the
** smaller id (distances within DIST_TOL are ties).  Returns its id, -1 when none; *bd its distance.  Reads
** only the cells of the rings up to the answer's distance.
*/
static int32_t ring_nearest(astar_grid *gr, const astar_query *q, int filtered, int metric,
                            int32_t x0, int32_t y0, double maxd, double *bd) {
  int32_t w = astar_grid_width(gr), h = astar_grid_height(gr), r, x, y, best = -1;
  double bestd = HUGE_VAL;
  for (r = 0;; r++) {
    double lb = ring_bound(gr, metric, r);
    if (lb > maxd || lb > bestd + DIST_TOL(bestd)) break;
    if (x0 - r < 0 && y0 - r < 0 && x0 + r >= w && y0 + r >= h) break;
    for (y = y0 - r; y <= y0 + r; y++) {
      int32_t step = (y == y0 - r || y == y0 + r) ? 1 : 2 * r;
      if (y < 0 || y >= h) continue;
      for (x = x0 - r; x <= x0 + r; x += step > 0 ? step : 1) {
        double d;
        int32_t id;
        if (x < 0 || x >= w) continue;
        d = cell_metric(gr, metric, x0, y0, x, y);
        id = y * w + x;
        if (d > maxd || d > bestd + DIST_TOL(bestd)) continue;
        if (d >= bestd - DIST_TOL(bestd) && id > best) continue; /* a tie: the smaller id */
        if (!cell_fits(gr, q, filtered, x, y)) continue;
        best = id;
        bestd = d;
      }
    }
  }
  *bd = bestd;
  return best;
}

/* grid:nearest_open(x, y [, size [, max_radius]]) -> x, y, distance, or nil:
** the open cell nearest (x, y) by the distance between centres where a
** unit of `size` fits, within max_radius (default: anywhere). */
static int l_cells_nearest_open(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x0, y0, best;
  double maxd = HUGE_VAL, d;
  astar_query q;
  check_xy(L, T, 2, &x0, &y0);
  astar_query_init(&q, 0, 0);
  q.size = check_size(L, 4);
  if (!lua_isnoneornil(L, 5)) {
    if (lua_type(L, 5) != LUA_TNUMBER) type_error(L, 5, "number");
    maxd = lua_tonumber(L, 5);
    if (!(maxd >= 0))
      arg_error(L, 5, lua_pushfstring(L, "max_radius must be a number >= 0, got %s", describe(L, 5)));
  }
  if (q.size > 1) check_status(L, astar_grid_clearance(T->grid, x0, y0)); /* builds the layer */
  best = ring_nearest(T->grid, &q, 0, METRIC_EUCLID, x0, y0, maxd, &d);
  account(L, T->o.M);
  if (best < 0) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, best % astar_grid_width(T->grid) + 1);
  lua_pushinteger(L, best / astar_grid_width(T->grid) + 1);
  lua_pushnumber(L, d);
  return 3;
}

/* ------------------------------------------------------------------------ */
/* spread                                                                     */
/* ------------------------------------------------------------------------ */

/*
** grid:spread(x, y, n [, size]) -> { {x, y}, ... }: the n cells nearest
** the goal by path cost (a reverse distance search from it, as
** grid:distances computes: the cost of walking from the cell to the goal),
** reachable, where the unit fits; in that order, the goal first.  The
** search stops after n expansions: it costs what n cells cost, whatever
** the map's size.  Fewer when fewer are reachable; none when the unit does
** not fit at the goal.
*/
static int l_cells_spread(lua_State *L) {
  /* stack: 1 grid, 2 x, 3 y, 4 n, 5 size, then the search state */
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 1);
  int32_t goal = check_xy(L, T, 2, NULL, NULL), w = astar_grid_width(T->grid);
  int32_t n = check_range(L, 4, "n", 1, INT32_MAX);
  lsearch *S;
  astar_query q;
  const int32_t *vis;
  size_t nv, i;
  int rc;
  astar_query_init(&q, goal, goal);
  q.size = check_size(L, 5);
  q.record_visited = 1;
  lua_settop(L, 5);
  S = acquire_search(L, C, 1);
  rc = astar_search_begin_distances(S->b.s, T->t, &goal, 1, 1, &q);
  if (rc == ASTAR_OK) rc = astar_search_step(S->b.s, (uint64_t)n);
  if (rc < 0) return search_error(L, T, S->b.s, rc);
  vis = astar_search_visited(S->b.s, &nv);
  if (nv > (size_t)n) nv = (size_t)n;
  lua_createtable(L, (int)nv, 0);
  for (i = 0; i < nv; i++) {
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, vis[i] % w + 1);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, vis[i] / w + 1);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, (int)i + 1);
  }
  return 1;
}

/* ------------------------------------------------------------------------ */
/* graphs                                                                     */
/* ------------------------------------------------------------------------ */

/* graph:nearest(x, y [, z]) -> node, distance, or nil: the enabled node
** nearest the position (Euclidean; in the plane when z is absent, else in
** space).  Ties: the smaller id.  A scan of every node. */
static int l_graph_nearest(lua_State *L) {
  ltopo *T = check_self(L);
  double x = check_finite(L, 2, "x"), y = check_finite(L, 3, "y"), z = 0, best = HUGE_VAL;
  int use_z = !lua_isnoneornil(L, 4);
  int32_t n = astar_graph_node_count(GRAPH(T)), i, id = -1;
  if (use_z) z = check_finite(L, 4, "z");
  for (i = 0; i < n; i++) {
    double p[3], d;
    if (!astar_graph_enabled(GRAPH(T), i)) continue;
    astar_graph_position(GRAPH(T), i, p);
    d = (p[0] - x) * (p[0] - x) + (p[1] - y) * (p[1] - y);
    if (use_z) d += (p[2] - z) * (p[2] - z);
    if (d < best) {
      best = d;
      id = i;
    }
  }
  if (id < 0) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, id + 1);
  lua_pushnumber(L, sqrt(best));
  return 2;
}

/* ------------------------------------------------------------------------ */
/* methods written in Lua                                                     */
/* ------------------------------------------------------------------------ */

/* core._methods() -> the method tables of astar.Grid, astar.Hex and
** astar.Graph, and the path methods: lua/astar.lua adds the methods written
** in Lua (lua/astar/follow.lua) to them, once, when the module loads. */
static int l_methods(lua_State *L) {
  static const char *const names[] = {GRID_MT, HEX_MT, "astar.Graph"};
  int i;
  for (i = 0; i < 3; i++) {
    luaL_getmetatable(L, names[i]);
    lua_getfield(L, -1, "__index");
    lua_remove(L, -2);
  }
  luaL_getmetatable(L, GRID_PATH_MT);
  lua_getfield(L, -1, "__index");
  lua_getupvalue(L, -1, 1);
  lua_remove(L, -2);
  lua_remove(L, -2);
  return 4;
}
