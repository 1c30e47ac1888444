/*
** lgrid.c -- astar.Grid: a 4- or 8-connected grid of cells.  Its class (a
** cell is named by x, y; paths carry the width and build xy on demand;
** distances return a field) and its own methods: cells, line of sight,
** visibility, memory.  Text I/O is ltext.c.  Included by lastar.c.
**
** Lua sees cells as 1-based (x, y) or as cell ids y * w + x + 1; the core
** takes 0-based cell ids (grid.c pads them internally).  A step is named by
** its two cells: callbacks get (x1, y1, x2, y2, cost), and the direction the
** core links by stays inside.  Per-cell fields (lfield.c) fit a grid by its
** shape, which is why only grids take the penalty and forbid options.
*/

#define GRID_PATH_MT "astar.GridPath"
#define GRID(T) ((astar_grid *)(T)->impl)

static const char *const diagonal_names[] = {
    [ASTAR_DIAG_NEVER] = "never",
    [ASTAR_DIAG_NO_CORNER_CUTTING] = "no_corner_cutting",
    [ASTAR_DIAG_ONE_OBSTACLE] = "one_obstacle",
    [ASTAR_DIAG_ALWAYS] = "always",
};

/* ------------------------------------------------------------------------ */
/* the class                                                                  */
/* ------------------------------------------------------------------------ */

/* The class functions (see ltopo_class).  None of them allocates on
** success: the generic callers read nodes before they hold anything. */
static void grid_free(void *impl) { astar_grid_free((astar_grid *)impl); }
static astar_topology *grid_topology(void *impl) {
  return astar_grid_topology((astar_grid *)impl);
}

/* A grid takes fields of its own size. */
static int grid_shape(ltopo *T, int32_t *w, int32_t *h) {
  *w = astar_grid_width(GRID(T));
  *h = astar_grid_height(GRID(T));
  return 1;
}

/* The width of a topology of cells (square or hex grid): the functions
** below serve both classes (lhex.c), so they read it from the ltopo (cached
** at creation: it is read per callback). */
static int32_t cells_width(ltopo *T) { return T->cells_w; }

/* x at arg, y at arg + 1 -> the cell id (and coordinates, 0-based). */
static int32_t check_xy(lua_State *L, ltopo *T, int arg, int32_t *px, int32_t *py) {
  int32_t w, h;
  T->cls->shape(T, &w, &h);
  return check_coords(L, arg, w, h, px, py);
}

static int32_t grid_check_node(lua_State *L, ltopo *T, int arg) {
  return check_xy(L, T, arg, NULL, NULL);
}

/* An entry of a list of cells (sources): a table {x, y}, both read raw,
** inside the grid; any other value names the entry in the error. */
static int32_t grid_list_node(lua_State *L, ltopo *T, int arg, int vidx, const char *what,
                              size_t i) {
  int32_t w, h;
  double x = 0, y = 0;
  T->cls->shape(T, &w, &h);
  int ok = lua_istable(L, vidx);
  if (ok) {
    lua_rawgeti(L, vidx, 1);
    lua_rawgeti(L, vidx, 2);
    x = lua_tonumber(L, -2);
    y = lua_tonumber(L, -1);
    ok = lua_type(L, -2) == LUA_TNUMBER && lua_type(L, -1) == LUA_TNUMBER && x == floor(x) &&
         y == floor(y) && x >= 1 && y >= 1 && x <= w && y <= h;
    lua_pop(L, 2);
  }
  if (!ok)
    arg_error(L, arg, lua_pushfstring(L, "%s[%d] must be a cell {x, y} inside the %dx%d %s, "
                                         "got %s",
                                      what, (int)i + 1, (int)w, (int)h, T->cls->what, describe(L, vidx)));
  return (int32_t)(y - 1) * w + (int32_t)(x - 1);
}

/* A cell as callbacks get it: two values, x and y, 1-based (the hot path
** of Lua heuristics: one call, one division). */
static int grid_push_node(lua_State *L, ltopo *T, int32_t id) {
  int32_t w = cells_width(T), y = id / w;
  lua_pushinteger(L, id - y * w + 1);
  lua_pushinteger(L, y + 1);
  return 2;
}

static const char *grid_node_name(lua_State *L, ltopo *T, int32_t id) {
  int32_t w = cells_width(T);
  return lua_pushfstring(L, "cell (%d, %d)", (int)(id % w + 1), (int)(id / w + 1));
}

/* The cost callback's arguments: cost(x1, y1, x2, y2, cost), `cost` after
** the cell's cost, the tag factor and the penalty. */
static int grid_push_step(lua_State *L, ltopo *T, int32_t from, int32_t to, int32_t link,
                          double cost) {
  (void)link;
  grid_push_node(L, T, from);
  grid_push_node(L, T, to);
  lua_pushnumber(L, cost);
  return 5;
}

static const char *grid_step_name(lua_State *L, ltopo *T, int32_t from, int32_t to,
                                  int32_t link) {
  int32_t w = cells_width(T);
  (void)link;
  return lua_pushfstring(L, "the step from (%d, %d) to (%d, %d)", (int)(from % w + 1),
                         (int)(from / w + 1), (int)(to % w + 1), (int)(to / w + 1));
}

/* What a step cost that came out bad is blamed on: entering the cell (its
** cost, tag and penalty are what made the step). */
static const char *grid_cost_subject(lua_State *L, ltopo *T, int32_t from, int32_t to,
                                     int32_t link) {
  int32_t w = cells_width(T);
  (void)from;
  (void)link;
  return lua_pushfstring(L, "entering cell (%d, %d)", (int)(to % w + 1), (int)(to / w + 1));
}

/* path.width, and path.xy built on first access (a table per cell is more
** than many searches cost, and many callers never read it) */
static void grid_path_extras(lua_State *L, ltopo *T, const int32_t *links, int32_t len) {
  int32_t i, diagonal = 0;
  for (i = 0; i + 1 < len; i++) diagonal += links[i] >= 4;
  /* path.length: steps of 1 and the grid's diagonal (sqrt 2) */
  lua_pushnumber(L, (double)(len - 1 - diagonal) + diagonal * ASTAR_GRID_DIAG);
  lua_setfield(L, -2, "length");
  lua_pushinteger(L, astar_grid_width(GRID(T)));
  lua_setfield(L, -2, "width");
  luaL_getmetatable(L, GRID_PATH_MT);
  lua_setmetatable(L, -2);
}

/* Trace entries on a grid also say where: x and y beside the cell id. */
static void grid_trace_extras(lua_State *L, ltopo *T, int32_t node) {
  int32_t w = cells_width(T);
  set_int(L, "x", node % w + 1);
  set_int(L, "y", node / w + 1);
}

/* a field of the distances, which also knows the next cell toward the
** nearest source (the search tree's parent, in either direction) */
static int grid_push_distances(lua_State *L, ltopo *T, int tidx, astar_search *s,
                               int reverse) {
  int32_t w, h;
  lfield *F;
  T->cls->shape(T, &w, &h);
  F = field_new(L, tidx, w, h, HUGE_VAL, 1);
  field_fill_distances(F, T, s);
  F->grid = T;
  F->grid_version = astar_topology_version(T->t);
  F->reverse = reverse;
  /* from now on a square grid logs its changes, so field:update() can
  ** repair instead of recomputing (without the log, or on a hex grid, it
  ** recomputes) */
  if (F->hex < 0) (void)astar_grid_track_changes(GRID(T), FIELD_CHANGE_LOG);
  return 1;
}

static const ltopo_class grid_class = {
    .mt = GRID_MT,
    .what = "grid",
    .node_args = 2,
    .max_tag = 65535,
    .free = grid_free,
    .topology = grid_topology,
    .shape = grid_shape,
    .check_node = grid_check_node,
    .list_node = grid_list_node,
    .push_node = grid_push_node,
    .node_name = grid_node_name,
    .push_step = grid_push_step,
    .step_name = grid_step_name,
    .cost_subject = grid_cost_subject,
    .step_word = "step",
    .path_extras = grid_path_extras,
    .trace_extras = grid_trace_extras,
    .push_distances = grid_push_distances,
};

/* __index of grid paths: path.xy, the list of {x, y} cells, made from
** path.nodes and path.width on first access and then stored in the path.
** The path is an ordinary table its owner may have changed: values that
** are not cells are refused rather than converted. */
static int grid_path_index(lua_State *L) {
  lua_Integer w, i, n;
  double dw;
  if (lua_type(L, 2) != LUA_TSTRING || strcmp(lua_tostring(L, 2), "xy") != 0) return 0;
  lua_getfield(L, 1, "width");
  lua_getfield(L, 1, "nodes");
  if (lua_isnil(L, -2) || !lua_istable(L, -1)) return 0;
  dw = lua_tonumber(L, -2);
  if (lua_type(L, -2) != LUA_TNUMBER || dw != floor(dw) || dw < 1 || dw > ASTAR_GRID_MAX_SIDE)
    return luaL_error(L, "cannot build path.xy: path.width must be an integer in 1..%d, got %s",
                      ASTAR_GRID_MAX_SIDE, describe(L, -2));
  w = (lua_Integer)dw;
  n = (lua_Integer)compat_rawlen(L, -1);
  lua_createtable(L, n > INT32_MAX ? 0 : (int)n, 0);
  for (i = 1; i <= n; i++) {
    lua_Integer c;
    double dc;
    lua_rawgeti(L, -2, (int)i);
    dc = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || dc != floor(dc) || dc < 1 || dc > 1073741824.0)
      return luaL_error(L, "cannot build path.xy: path.nodes[%d] must be a cell id, got %s",
                        (int)i, describe(L, -1));
    c = (lua_Integer)dc - 1;
    lua_pop(L, 1);
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, c % w + 1);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, c / w + 1);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, (int)i);
  }
  lua_pushvalue(L, -1);
  lua_setfield(L, 1, "xy"); /* rawset: xy is not in the table yet */
  return 1;
}

/* ------------------------------------------------------------------------ */
/* methods                                                                    */
/* ------------------------------------------------------------------------ */

/* Reads { diagonal = rule, cell_size = s, origin = {ox, oy} } at arg into
** *diag (default no_corner_cutting) and the world frame w[3] (s, ox, oy;
** default 1, 0, 0: see lsmooth.c). */
static void grid_options(lua_State *L, int arg, int *diag, double w[3]) {
  static const char *const keys[] = {"diagonal", "cell_size", "origin"};
  *diag = ASTAR_DIAG_NO_CORNER_CUTTING;
  w[0] = 1;
  w[1] = w[2] = 0;
  if (!check_fields(L, arg, keys, COUNT_OF(keys))) return;
  lua_getfield(L, arg, "diagonal");
  if (!lua_isnil(L, -1))
    *diag = check_choice(L, arg, lua_gettop(L), "diagonal", diagonal_names,
                         COUNT_OF(diagonal_names), "");
  lua_pop(L, 1);
  world_options(L, arg, &w[0], &w[1], &w[2]);
}

/* astar.grid(width, height [, { diagonal = rule }]) -> an open grid. */
static int l_grid_new(lua_State *L) {
  lstate *M = get_state(L);
  int32_t w = check_range(L, 1, "width", 1, ASTAR_GRID_MAX_SIDE);
  int32_t h = check_range(L, 2, "height", 1, ASTAR_GRID_MAX_SIDE);
  int diag;
  double world[3];
  ltopo *T;
  lua_settop(L, 3);
  grid_options(L, 3, &diag, world);
  if ((double)w * h >= (double)(1 << 30))
    return arg_error(L, 2, "grid too large (width * height must be below 2^30)");
  T = topo_new(L, &grid_class);
  topo_attach(L, T, astar_grid_new(w, h, diag, state_alloc, M));
  world_store(L, lua_gettop(L), world[0], world[1], world[2]);
  account(L, M);
  return 1;
}

/* grid:set_blocked(x, y, blocked): the core updates the move masks of the
** cell and its eight neighbours; a search holding the grid refuses it. */
static int l_grid_set_blocked(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y;
  int b;
  check_xy(L, T, 2, &x, &y);
  b = check_bool(L, 4);
  check_mutable(L, T);
  astar_grid_set_blocked(GRID(T), x, y, b);
  return 0;
}

static int l_grid_is_blocked(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y;
  check_xy(L, T, 2, &x, &y);
  lua_pushboolean(L, astar_grid_blocked(GRID(T), x, y));
  return 1;
}

/* grid:set_cost(x, y, cost): the first cost other than 1 allocates the
** cost layer (8 bytes a cell), reported to the collector; from then on the
** grid's searches take the general path. */
static int l_grid_set_cost(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y;
  double c;
  check_xy(L, T, 2, &x, &y);
  c = check_cost(L, 4, "cost");
  check_mutable(L, T);
  if (astar_grid_set_cost(GRID(T), x, y, c) != ASTAR_OK) return luaL_error(L, "not enough memory");
  account(L, T->o.M);
  return 0;
}

static int l_grid_get_cost(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y;
  double c;
  check_xy(L, T, 2, &x, &y);
  astar_grid_cost(GRID(T), x, y, &c);
  lua_pushnumber(L, c);
  return 1;
}

/* grid:set_tag(x, y, tag): interning a new name allocates (a finalizer may
** run): with a name the call runs protected, the grid held. */
static int set_tag(lua_State *L, lcall *C) {
  ltopo *T = check_self(L);
  int32_t x, y, tag = 0;
  if (C) hold(L, C, &T->o, 0);
  check_xy(L, T, 2, &x, &y);
  if (!lua_isnoneornil(L, 4) && lua_type(L, 4) != LUA_TSTRING)
    type_error(L, 4, "string (tag name)");
  check_mutable(L, T);
  if (!lua_isnoneornil(L, 4)) {
    tag = intern_tag(L, 1, 4, grid_class.max_tag);
    check_mutable(L, T); /* a finalizer's search ended */
  }
  if (astar_grid_set_tag(GRID(T), x, y, tag) != ASTAR_OK) return luaL_error(L, "not enough memory");
  return 0;
}

static int grid_set_tag_named(lua_State *L) { return set_tag(L, call_frame(L)); }

static int l_grid_set_tag(lua_State *L) {
  if (!lua_isnoneornil(L, 4) && lua_type(L, 4) == LUA_TSTRING)
    return l_protected(L); /* grid_set_tag_named */
  set_tag(L, NULL);
  account(L, get_state(L));
  return 0;
}

/* grid:get_tag(x, y) -> the tag's name, or nil. */
static int l_grid_get_tag(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y, tag;
  check_xy(L, T, 2, &x, &y);
  astar_grid_tag(GRID(T), x, y, &tag);
  push_tag_name(L, 1, tag);
  return 1;
}

/* grid:id(x, y) -> cell id and grid:xy(id) -> x, y: the two namings (hex
** grids share these, and size and memory). */
static int l_grid_id(lua_State *L) {
  ltopo *T = check_self(L);
  lua_pushinteger(L, (lua_Integer)check_xy(L, T, 2, NULL, NULL) + 1);
  return 1;
}

static int l_grid_xy(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t w, h, c;
  T->cls->shape(T, &w, &h);
  c = check_id(L, 2, "cell", w * h, T->cls->what);
  lua_pushinteger(L, c % w + 1);
  lua_pushinteger(L, c / w + 1);
  return 2;
}

static int l_grid_size(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t w, h;
  T->cls->shape(T, &w, &h);
  lua_pushinteger(L, w);
  lua_pushinteger(L, h);
  return 2;
}

static int l_grid_diagonal(lua_State *L) {
  lua_pushstring(L, diagonal_names[astar_grid_diagonal(GRID(check_self(L)))]);
  return 1;
}

/* The optional unit size at arg (none or nil: 1). */
static int32_t check_size(lua_State *L, int arg) {
  double k;
  if (lua_isnoneornil(L, arg)) return 1;
  k = lua_type(L, arg) == LUA_TNUMBER ? lua_tonumber(L, arg) : 0;
  if (lua_type(L, arg) != LUA_TNUMBER || !(k >= 1) || k != floor(k) || k > ASTAR_MAX_UNIT)
    arg_error(L, arg, lua_pushfstring(L, "size must be an integer in 1..%d, got %s", ASTAR_MAX_UNIT, describe(L, arg)));
  return (int32_t)k;
}

/* grid:line_of_sight(x1, y1, x2, y2 [, size]): exact, symmetric (grid.c:
** sight); a unit of size k x k needs every one of its cells to see its
** counterpart.  A size above 1 may build the clearance layer (reported to
** the collector). */
static int l_grid_line_of_sight(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x0, y0, x1, y1, k;
  int rc;
  check_xy(L, T, 2, &x0, &y0);
  check_xy(L, T, 4, &x1, &y1);
  k = check_size(L, 6);
  rc = astar_grid_line_of_sight_size(GRID(T), x0, y0, x1, y1, k);
  if (rc == ASTAR_ENOMEM) return luaL_error(L, "not enough memory");
  if (k > 1) account(L, T->o.M);
  lua_pushboolean(L, rc == 1);
  return 1;
}

/* grid:clearance(x, y) -> the largest k whose k x k block with top-left
** cell (x, y) is inside the grid and open (capped at 255), 0 on a blocked
** cell.  The first call builds the clearance layer (a byte a cell), which
** set_blocked then keeps current. */
static int l_grid_clearance(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y;
  int rc;
  check_xy(L, T, 2, &x, &y);
  rc = astar_grid_clearance(GRID(T), x, y);
  if (rc < 0) return luaL_error(L, "not enough memory");
  account(L, T->o.M);
  lua_pushinteger(L, rc);
  return 1;
}

/* grid:visible_from(x, y [, radius]) -> field: 1 where (x, y) sees the
** cell.  Protected: making the field may run a finalizer. */
static int l_grid_visible_from(lua_State *L) {
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 0);
  int32_t x, y, w, h;
  double radius = -1;
  lfield *F;
  check_xy(L, T, 2, &x, &y);
  if (!lua_isnoneornil(L, 4)) radius = check_cost(L, 4, "radius");
  grid_shape(T, &w, &h);
  F = field_new(L, 1, w, h, 0, 0);
  astar_grid_visible_from(GRID(T), x, y, radius, F->v);
  return 1;
}

/* grid:memory() -> the bytes C holds for the grid and its cached search
** state (not the queries, which own theirs). */
static int l_grid_memory(lua_State *L) {
  ltopo *T = check_self(L);
  lua_pushinteger(L, (lua_Integer)topo_bytes(L, T, 1));
  return 1;
}

/* __tostring works on a closed grid too (it says so). */
static int l_grid_tostring(lua_State *L) {
  ltopo *T;
  if (topo_class_of(L, 1) != &grid_class) type_error(L, 1, GRID_MT);
  T = (ltopo *)lua_touserdata(L, 1);
  if (T->o.closed) lua_pushliteral(L, "astar.Grid (closed)");
  else
    lua_pushfstring(L, "astar.Grid (%dx%d, diagonal %s)", (int)astar_grid_width(GRID(T)),
                    (int)astar_grid_height(GRID(T)),
                    diagonal_names[astar_grid_diagonal(GRID(T))]);
  return 1;
}
