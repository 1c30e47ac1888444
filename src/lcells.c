/*
** lcells.c -- what every grid of cells shares in Lua, whatever its shape:
** the class functions (a cell is named by x, y; paths carry the width and
** build xy on demand; distances return a field) and the cell methods
** (cells, line of sight, clearance, visibility, text, the world frame,
** memory), written once and registered into every class of grids
** (astar.Grid, astar.Hex), as luv pours its handle methods into each handle
** type.  Each method reads the core grid (T->grid); what differs between
** shapes is asked of the class's lcells_ops (lgrid.c, lhex.c).  Included by
** lastar.c after lgraph.c.
**
** Lua sees cells as 1-based (x, y) or as cell ids y * w + x + 1; the core
** takes 0-based cell ids (it pads them internally).  A step is named by its
** two cells: callbacks get (x1, y1, x2, y2, cost), and the direction the
** core links by stays inside.  Per-cell fields (lfield.c) fit a grid by its
** shape, which is why only grids take the penalty and forbid options.
*/

#define GRID_PATH_MT "astar.GridPath"
/* registry: light userdata (a grid's ltopo) -> that grid's path metatable,
** weak values (the grid's user value keeps it alive as long as the grid) */
#define PATH_MTS "astar.path_mts"

/* Pushes the metatable of T's paths: the grid's own (its __index the shared
** grid_path_index, its `grid` field the grid, so path methods reach the
** world frame), or the shared GRID_PATH_MT when the grid has none.  No
** allocation: two lookups. */
static void push_path_mt(lua_State *L, ltopo *T) {
  KEY(L, K_PATH_MTS); /* the registry's PATH_MTS table */
  lua_pushlightuserdata(L, T);
  lua_rawget(L, -2);
  lua_remove(L, -2);
  if (lua_istable(L, -1)) return;
  lua_pop(L, 1);
  luaL_getmetatable(L, GRID_PATH_MT);
}

/* Makes the path metatable of the new grid at gidx (see push_path_mt). */
static void path_mt_new(lua_State *L, ltopo *T, int gidx) {
  lua_createtable(L, 0, 3);
  lua_pushstring(L, GRID_PATH_MT); /* a grid path's __name, on every Lua */
  lua_setfield(L, -2, "__name");
  luaL_getmetatable(L, GRID_PATH_MT);
  lua_getfield(L, -1, "__index");
  lua_setfield(L, -3, "__index");
  lua_pop(L, 1);
  lua_pushvalue(L, gidx);
  lua_setfield(L, -2, "grid");
  compat_getuv(L, gidx);
  lua_pushvalue(L, -2);
  lua_setfield(L, -2, "path_mt");
  lua_pop(L, 1);
  lua_getfield(L, LUA_REGISTRYINDEX, PATH_MTS);
  lua_pushlightuserdata(L, T);
  lua_pushvalue(L, -3);
  lua_rawset(L, -3);
  lua_pop(L, 2);
}

/* ------------------------------------------------------------------------ */
/* the class functions                                                        */
/* ------------------------------------------------------------------------ */

/* The class functions (see ltopo_class).  None of them allocates on
** success: the generic callers read nodes before they hold anything. */
static void cells_free(void *impl) { astar_grid_free((astar_grid *)impl); }
static astar_topology *cells_topology(void *impl) {
  return astar_grid_topology((astar_grid *)impl);
}

/* A grid takes fields of its own size. */
static int cells_shape(ltopo *T, int32_t *w, int32_t *h) {
  *w = astar_grid_width(T->grid);
  *h = astar_grid_height(T->grid);
  return 1;
}

/* The width, cached at creation (it is fixed, and read per callback). */
static int32_t cells_width(ltopo *T) { return T->cells_w; }

/* x at arg, y at arg + 1 -> the cell id (and coordinates, 0-based). */
static int32_t check_xy(lua_State *L, ltopo *T, int arg, int32_t *px, int32_t *py) {
  return check_coords(L, arg, astar_grid_width(T->grid), astar_grid_height(T->grid), px, py);
}

static int32_t cells_check_node(lua_State *L, ltopo *T, int arg) {
  return check_xy(L, T, arg, NULL, NULL);
}

/* An entry of a list of cells (sources): a table {x, y}, both read raw,
** inside the grid; any other value names the entry in the error. */
static int32_t cells_list_node(lua_State *L, ltopo *T, int arg, int vidx, const char *what,
                               size_t i) {
  int32_t w = astar_grid_width(T->grid), h = astar_grid_height(T->grid);
  double x = 0, y = 0;
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
    arg_error(L, arg,
              lua_pushfstring(L, "%s[%d] must be a cell {x, y} inside the %dx%d %s, got %s", what,
                              (int)i + 1, (int)w, (int)h, T->cls->what, describe(L, vidx)));
  return (int32_t)(y - 1) * w + (int32_t)(x - 1);
}

/* A cell as callbacks get it: two values, x and y, 1-based (the hot path
** of Lua heuristics: one call, one division). */
static int cells_push_node(lua_State *L, ltopo *T, int32_t id) {
  int32_t w = cells_width(T), y = id / w;
  lua_pushinteger(L, id - y * w + 1);
  lua_pushinteger(L, y + 1);
  return 2;
}

static const char *cells_node_name(lua_State *L, ltopo *T, int32_t id) {
  int32_t w = cells_width(T);
  return lua_pushfstring(L, "cell (%d, %d)", (int)(id % w + 1), (int)(id / w + 1));
}

/* The cost callback's arguments: cost(x1, y1, x2, y2, cost), `cost` after
** the cell's cost, the tag factor and the penalty. */
static int cells_push_step(lua_State *L, ltopo *T, int32_t from, int32_t to, int32_t link,
                           double cost) {
  (void)link;
  cells_push_node(L, T, from);
  cells_push_node(L, T, to);
  lua_pushnumber(L, cost);
  return 5;
}

static const char *cells_step_name(lua_State *L, ltopo *T, int32_t from, int32_t to,
                                   int32_t link) {
  int32_t w = cells_width(T);
  (void)link;
  return lua_pushfstring(L, "the step from (%d, %d) to (%d, %d)", (int)(from % w + 1),
                         (int)(from / w + 1), (int)(to % w + 1), (int)(to / w + 1));
}

/* What a step cost that came out bad is blamed on: entering the cell (its
** cost, tag and penalty are what made the step). */
static const char *cells_cost_subject(lua_State *L, ltopo *T, int32_t from, int32_t to,
                                      int32_t link) {
  int32_t w = cells_width(T);
  (void)from;
  (void)link;
  return lua_pushfstring(L, "entering cell (%d, %d)", (int)(to % w + 1), (int)(to / w + 1));
}

/* path.length (the sum of the steps' lengths, as the shape measures
** them), path.width, and path.xy built on first access (a table per cell
** is more than many searches cost, and many callers never read it) */
static void cells_path_extras(lua_State *L, ltopo *T, const int32_t *links, int32_t len,
                              double length) {
  const double *step = T->cls->cells->step_length;
  int32_t i;
  if (length < 0)
    for (length = 0, i = 0; i + 1 < len; i++) length += step[links[i]]; /* in path order */
  kset_num(L, K_LENGTH, length);
  kset_int(L, K_WIDTH, cells_width(T));
  push_path_mt(L, T);
  lua_setmetatable(L, -2);
}

/* Trace entries on a grid also say where: x and y beside the cell id. */
static void cells_trace_extras(lua_State *L, ltopo *T, int32_t node) {
  int32_t w = cells_width(T);
  kset_int(L, K_X, node % w + 1);
  kset_int(L, K_Y, node / w + 1);
}

/* a field of the distances, which also knows the next cell toward the
** nearest source (the search tree's parent, in either direction) */
static int cells_push_distances(lua_State *L, ltopo *T, int tidx, astar_search *s,
                                int reverse) {
  int32_t w, h;
  lfield *F;
  T->cls->shape(T, &w, &h);
  F = field_new(L, tidx, w, h, HUGE_VAL, 1);
  field_fill_distances(F, T, s);
  F->grid = T;
  F->grid_version = astar_topology_version(T->t);
  F->reverse = reverse;
  /* from now on a grid that repairs distances logs its changes, so
  ** field:update() can repair instead of recomputing (without the log it
  ** recomputes) */
  if (astar_topology_abilities(T->t) & ASTAR_CAN_REPAIR)
    (void)astar_grid_track_changes(T->grid, FIELD_CHANGE_LOG);
  return 1;
}

/* A class of grids: its metatable name, its noun and its picture; every
** other class function is the shared one above. */
#define CELLS_CLASS(mt_, what_, cells_) \
  { \
    .mt = mt_, .what = what_, .node_args = 2, .max_tag = 65535, .free = cells_free, \
    .topology = cells_topology, .shape = cells_shape, .check_node = cells_check_node, \
    .list_node = cells_list_node, .push_node = cells_push_node, .node_name = cells_node_name, \
    .push_step = cells_push_step, .step_name = cells_step_name, \
    .cost_subject = cells_cost_subject, .step_word = "step", \
    .path_extras = cells_path_extras, .path_fields = 2, .trace_extras = cells_trace_extras, \
    .push_distances = cells_push_distances, .cells = cells_ \
  }

/* __index of grid paths: path.xy, the list of {x, y} cells, made from
** path.nodes and path.width on first access and then stored in the path.
** The path is an ordinary table its owner may have changed: values that
** are not cells are refused rather than converted.  Any other key is
** looked up in the path methods (upvalue 1: point_at, project ... which
** lua/astar/follow.lua puts there). */
static int grid_path_index(lua_State *L) {
  lua_Integer w, i, n;
  double dw;
  if (lua_type(L, 2) != LUA_TSTRING) return 0;
  if (strcmp(lua_tostring(L, 2), "xy") != 0) {
    lua_pushvalue(L, 2);
    lua_rawget(L, lua_upvalueindex(1));
    return 1;
  }
  lua_getfield(L, 1, "width");
  lua_getfield(L, 1, "nodes");
  if (lua_isnil(L, -2) || !lua_istable(L, -1)) return 0;
  dw = lua_tonumber(L, -2);
  if (lua_type(L, -2) != LUA_TNUMBER || dw != floor(dw) || dw < 1 || dw > ASTAR_GRID_MAX_SIDE)
    return raise_error(L, "cannot build path.xy: path.width must be an integer in 1..%d, got %s",
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
      return raise_error(L, "cannot build path.xy: path.nodes[%d] must be a cell id, got %s",
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
/* cells                                                                      */
/* ------------------------------------------------------------------------ */

/* grid:set_blocked(x, y, blocked): the core updates the move masks of the
** cell and its neighbours (and whatever else the change reaches: the
** clearance layer once built, the change log, the component labels); a
** search holding the grid refuses it. */
static int l_cells_set_blocked(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y;
  int b;
  check_xy(L, T, 2, &x, &y);
  b = check_bool(L, 4);
  check_mutable(L, T);
  check_status(L, astar_grid_set_blocked(T->grid, x, y, b));
  account(L, T->o.M);
  return 0;
}

/* Bulk edits: every cell is checked first (an error changes nothing), then
** each goes through the core's one-cell edit (astar_grid_set_blocked,
** _set_cost, _set_tag, so whatever keeps itself current on edits sees each
** cell) inside one batch (astar_grid_edits_begin): the grid makes one new
** version, and logs every cell that changed (a cell left as it was is no
** change).  Nothing here allocates or runs Lua between the check and the
** edits, so the list read twice (raw) is the same list.  Only the first
** cell's edit can fail (allocating the cost or tag layer), before it
** changes anything. */
typedef struct bulk_edit {
  int what; /* 0 blocked, 1 cost, 2 tag */
  int blocked;
  double cost;
  int32_t tag;
} bulk_edit;

static int bulk_cell(astar_grid *gr, const bulk_edit *e, int32_t x, int32_t y) {
  if (e->what == 1) return astar_grid_set_cost(gr, x, y, e->cost);
  if (e->what == 2) return astar_grid_set_tag(gr, x, y, e->tag);
  return astar_grid_set_blocked(gr, x, y, e->blocked);
}

/* the cells of the rectangle with corners (x1, y1), (x2, y2), either order */
static void bulk_rect(lua_State *L, ltopo *T, const bulk_edit *e, int32_t x1, int32_t y1,
                      int32_t x2, int32_t y2) {
  int32_t x, y, t;
  int st = ASTAR_OK;
  if (x2 < x1) t = x1, x1 = x2, x2 = t;
  if (y2 < y1) t = y1, y1 = y2, y2 = t;
  astar_grid_edits_begin(T->grid);
  for (y = y1; y <= y2 && st == ASTAR_OK; y++)
    for (x = x1; x <= x2 && st == ASTAR_OK; x++) st = bulk_cell(T->grid, e, x, y);
  astar_grid_edits_end(T->grid);
  check_status(L, st);
}

/* the cells of the list at arg: {x, y} each (read raw; repeats allowed) */
static void bulk_list(lua_State *L, ltopo *T, const bulk_edit *e, int arg) {
  int32_t w = astar_grid_width(T->grid);
  size_t i, n = compat_rawlen(L, arg);
  int st = ASTAR_OK;
  for (i = 0; i < n; i++) { /* the check: every entry a cell inside the grid */
    lua_rawgeti(L, arg, (int)i + 1);
    (void)cells_list_node(L, T, arg, lua_gettop(L), "cells", i);
    lua_pop(L, 1);
  }
  astar_grid_edits_begin(T->grid);
  for (i = 0; i < n && st == ASTAR_OK; i++) {
    int32_t id;
    lua_rawgeti(L, arg, (int)i + 1);
    id = cells_list_node(L, T, arg, lua_gettop(L), "cells", i);
    lua_pop(L, 1);
    st = bulk_cell(T->grid, e, id % w, id / w);
  }
  astar_grid_edits_end(T->grid);
  check_status(L, st);
}

static void check_cell_list(lua_State *L, int arg) {
  if (!lua_istable(L, arg)) type_error(L, arg, "table (a list of cells)");
}

/* The value of a bulk edit of blocked cells or of costs, at arg. */
static void bulk_value(lua_State *L, bulk_edit *e, int arg) {
  if (e->what == 1) e->cost = check_cost(L, arg, "cost");
  else e->blocked = check_bool(L, arg);
}

/* grid:set_blocked_rect(x1, y1, x2, y2, blocked) (what 0) and
** grid:set_cost_rect(x1, y1, x2, y2, cost) (what 1; the first cost other
** than 1 allocates the cost layer, as set_cost does) */
static int bulk_rect_call(lua_State *L, int what) {
  ltopo *T = check_self(L);
  int32_t x1, y1, x2, y2;
  bulk_edit e = {0, 0, 1.0, 0};
  e.what = what;
  check_xy(L, T, 2, &x1, &y1);
  check_xy(L, T, 4, &x2, &y2);
  bulk_value(L, &e, 6);
  check_mutable(L, T);
  bulk_rect(L, T, &e, x1, y1, x2, y2);
  account(L, T->o.M);
  return 0;
}

/* grid:set_blocked_cells(cells, blocked) and grid:set_cost_cells(cells, cost) */
static int bulk_list_call(lua_State *L, int what) {
  ltopo *T = check_self(L);
  bulk_edit e = {0, 0, 1.0, 0};
  e.what = what;
  check_cell_list(L, 2);
  bulk_value(L, &e, 3);
  check_mutable(L, T);
  bulk_list(L, T, &e, 2);
  account(L, T->o.M);
  return 0;
}

static int l_cells_set_blocked_rect(lua_State *L) { return bulk_rect_call(L, 0); }
static int l_cells_set_blocked_cells(lua_State *L) { return bulk_list_call(L, 0); }
static int l_cells_set_cost_rect(lua_State *L) { return bulk_rect_call(L, 1); }
static int l_cells_set_cost_cells(lua_State *L) { return bulk_list_call(L, 1); }

/* grid:set_tag_rect(x1, y1, x2, y2, tag) and grid:set_tag_cells(cells,
** tag): tag a name or nil (no tag).  Interning a new name allocates (a
** finalizer may run): with a name the call runs protected, the grid held,
** and interns before the edit's check of the cells. */
static int set_tag_bulk(lua_State *L, lcall *C, int rect) {
  ltopo *T = check_self(L);
  int32_t x1 = 0, y1 = 0, x2 = 0, y2 = 0;
  int targ = rect ? 6 : 3;
  bulk_edit e = {2, 0, 1.0, 0};
  if (C) hold(L, C, &T->o, 0);
  if (rect) {
    check_xy(L, T, 2, &x1, &y1);
    check_xy(L, T, 4, &x2, &y2);
  } else {
    check_cell_list(L, 2);
  }
  if (!lua_isnoneornil(L, targ) && lua_type(L, targ) != LUA_TSTRING)
    type_error(L, targ, "string (tag name)");
  check_mutable(L, T);
  if (!lua_isnoneornil(L, targ)) {
    e.tag = intern_tag(L, 1, targ, T->cls->max_tag);
    check_mutable(L, T); /* a finalizer's search ended */
  }
  if (rect) bulk_rect(L, T, &e, x1, y1, x2, y2);
  else bulk_list(L, T, &e, 2);
  return 0;
}

static int cells_set_tag_rect_named(lua_State *L) { return set_tag_bulk(L, call_frame(L), 1); }
static int cells_set_tag_cells_named(lua_State *L) { return set_tag_bulk(L, call_frame(L), 0); }

static int l_cells_set_tag_rect(lua_State *L) {
  if (lua_type(L, 6) == LUA_TSTRING) return l_protected(L); /* cells_set_tag_rect_named */
  set_tag_bulk(L, NULL, 1);
  account(L, get_state(L));
  return 0;
}

static int l_cells_set_tag_cells(lua_State *L) {
  if (lua_type(L, 3) == LUA_TSTRING) return l_protected(L); /* cells_set_tag_cells_named */
  set_tag_bulk(L, NULL, 0);
  account(L, get_state(L));
  return 0;
}

static int l_cells_is_blocked(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y;
  check_xy(L, T, 2, &x, &y);
  lua_pushboolean(L, check_status(L, astar_grid_blocked(T->grid, x, y)));
  return 1;
}

/* grid:set_cost(x, y, cost): the first cost other than 1 allocates the
** cost layer (8 bytes a cell), reported to the collector; from then on the
** grid's searches take the general path.  On a square grid a diagonal step
** costs sqrt 2 times the cost; on a hex grid every step costs the cost. */
static int l_cells_set_cost(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y;
  double c;
  check_xy(L, T, 2, &x, &y);
  c = check_cost(L, 4, "cost");
  check_mutable(L, T);
  check_status(L, astar_grid_set_cost(T->grid, x, y, c));
  account(L, T->o.M);
  return 0;
}

static int l_cells_get_cost(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y;
  double c;
  check_xy(L, T, 2, &x, &y);
  check_status(L, astar_grid_cost(T->grid, x, y, &c));
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
    tag = intern_tag(L, 1, 4, T->cls->max_tag);
    check_mutable(L, T); /* a finalizer's search ended */
  }
  check_status(L, astar_grid_set_tag(T->grid, x, y, tag));
  return 0;
}

static int cells_set_tag_named(lua_State *L) { return set_tag(L, call_frame(L)); }

static int l_cells_set_tag(lua_State *L) {
  if (!lua_isnoneornil(L, 4) && lua_type(L, 4) == LUA_TSTRING)
    return l_protected(L); /* cells_set_tag_named */
  set_tag(L, NULL);
  account(L, get_state(L));
  return 0;
}

/* grid:get_tag(x, y) -> the tag's name, or nil. */
static int l_cells_get_tag(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y, tag;
  check_xy(L, T, 2, &x, &y);
  check_status(L, astar_grid_tag(T->grid, x, y, &tag));
  push_tag_name(L, 1, tag);
  return 1;
}

/* grid:id(x, y) -> cell id and grid:xy(id) -> x, y: the two namings. */
static int l_cells_id(lua_State *L) {
  ltopo *T = check_self(L);
  lua_pushinteger(L, (lua_Integer)check_xy(L, T, 2, NULL, NULL) + 1);
  return 1;
}

static int l_cells_xy(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t w, h, c;
  T->cls->shape(T, &w, &h);
  c = check_id(L, 2, "cell", w * h, T->cls->what);
  lua_pushinteger(L, c % w + 1);
  lua_pushinteger(L, c / w + 1);
  return 2;
}

static int l_cells_size(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t w, h;
  T->cls->shape(T, &w, &h);
  lua_pushinteger(L, w);
  lua_pushinteger(L, h);
  return 2;
}

/* grid:neighbours(x, y) -> { {x, y}, ... }: the cells next to (x, y) inside
** the grid, blocked or not, in direction order (square: east, west, south,
** north, then the diagonals unless the rule is never; hex: east, then
** counter-clockwise). */
static int l_cells_neighbours(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y, xy[16];
  int i, n;
  check_xy(L, T, 2, &x, &y);
  n = check_status(L, astar_grid_neighbours(T->grid, x, y, xy));
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    lua_createtable(L, 2, 0);
    lua_pushinteger(L, xy[2 * i] + 1);
    lua_rawseti(L, -2, 1);
    lua_pushinteger(L, xy[2 * i + 1] + 1);
    lua_rawseti(L, -2, 2);
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

/* The optional unit size at arg (none or nil: 1). */
static int32_t check_size(lua_State *L, int arg) {
  double k;
  if (lua_isnoneornil(L, arg)) return 1;
  k = lua_type(L, arg) == LUA_TNUMBER ? lua_tonumber(L, arg) : 0;
  if (lua_type(L, arg) != LUA_TNUMBER || !(k >= 1) || k != floor(k) || k > ASTAR_MAX_UNIT)
    arg_error(L, arg,
              lua_pushfstring(L, "size must be an integer in 1..%d, got %s", ASTAR_MAX_UNIT,
                              describe(L, arg)));
  return (int32_t)k;
}

/* grid:line_of_sight(x1, y1, x2, y2 [, size]): exact, symmetric (the
** shape's rule: astar_grid_line_of_sight); a unit of size k needs every one
** of its cells to see its counterpart.  A size above 1 may build the
** clearance layer (reported to the collector). */
static int l_cells_line_of_sight(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x0, y0, x1, y1, k;
  int rc;
  check_xy(L, T, 2, &x0, &y0);
  check_xy(L, T, 4, &x1, &y1);
  k = check_size(L, 6);
  rc = check_status(L, astar_grid_line_of_sight_size(T->grid, x0, y0, x1, y1, k));
  if (k > 1) account(L, T->o.M);
  lua_pushboolean(L, rc == 1);
  return 1;
}

/* grid:clearance(x, y) -> the largest unit size that fits at the cell
** (capped at 255), 0 on a blocked cell.  The first call builds the
** clearance layer (a byte a cell), which set_blocked then keeps current. */
static int l_cells_clearance(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y;
  int rc;
  check_xy(L, T, 2, &x, &y);
  rc = check_status(L, astar_grid_clearance(T->grid, x, y));
  account(L, T->o.M);
  lua_pushinteger(L, rc);
  return 1;
}

/* grid:visible_from(x, y [, radius]) -> field: 1 where (x, y) sees the
** cell, within radius (square: Euclidean, hex: steps).  Protected: making
** the field may run a finalizer. */
static int l_cells_visible_from(lua_State *L) {
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 0);
  int32_t x, y, w, h;
  double radius = -1;
  lfield *F;
  check_xy(L, T, 2, &x, &y);
  if (!lua_isnoneornil(L, 4)) radius = check_cost(L, 4, "radius");
  T->cls->shape(T, &w, &h);
  F = field_new(L, 1, w, h, 0, 0);
  check_status(L, astar_grid_visible_from(T->grid, x, y, radius, F->v));
  return 1;
}

/* grid:to_table() -> rows: rows[y][x] is 1 on a blocked cell, 0 on an open
** one (astar.grid_from_table's default legend, so it makes the same
** passability again; costs and tags are not in it).  Protected: each new
** row may run finalizers, and the call holds the grid (a close waits). */
static int l_cells_to_table(lua_State *L) {
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 0);
  int32_t w = astar_grid_width(T->grid), h = astar_grid_height(T->grid), x, y;
  lua_createtable(L, (int)h, 0);
  for (y = 0; y < h; y++) {
    lua_createtable(L, (int)w, 0);
    for (x = 0; x < w; x++) {
      lua_pushinteger(L, astar_grid_blocked(T->grid, x, y));
      lua_rawseti(L, -2, (int)x + 1);
    }
    lua_rawseti(L, -2, (int)y + 1);
  }
  return 1;
}

/* grid:memory() -> the bytes C holds for the grid and its cached search
** state (not the queries, which own theirs). */
static int l_cells_memory(lua_State *L) {
  ltopo *T = check_self(L);
  lua_pushinteger(L, (lua_Integer)topo_bytes(L, T, 1));
  return 1;
}

/* ------------------------------------------------------------------------ */
/* text                                                                       */
/* ------------------------------------------------------------------------ */

/*
** grid:to_string([path]) -> the map as text: '#' blocked, '.' open, '~' open
** with a cost other than 1 or a tag; a path (a find_path result or a list of
** cell ids) is drawn with '*', its first cell 'S' and its last 'G'.  The
** shape lays the characters out (lcells_ops.text).  Protected: the scratch
** and the picture allocate.
*/
static int l_cells_to_string(lua_State *L) {
  /* stack: 1 grid, 2 path or list (or nil), [3 the list], then the scratch */
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 0);
  const astar_grid *gr = T->grid;
  int32_t w = astar_grid_width(gr), h = astar_grid_height(gr), x, y;
  size_t n = (size_t)w * (size_t)h;
  char *cells, *line;
  luaL_Buffer b;
  int pidx = 0;
  lua_settop(L, 2);
  if (!lua_isnil(L, 2)) {
    if (!lua_istable(L, 2)) type_error(L, 2, "table (a path or a list of cell ids)");
    lua_getfield(L, 2, "nodes");
    if (!lua_istable(L, -1)) {
      lua_pop(L, 1);
      lua_pushvalue(L, 2);
    }
    pidx = lua_gettop(L);
  }
  cells = (char *)lua_newuserdata(L, n); /* scratch, collected with the call */
  line = (char *)lua_newuserdata(L, 2 * (size_t)w + 1);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      double c;
      int32_t tag;
      astar_grid_cost(gr, x, y, &c);
      astar_grid_tag(gr, x, y, &tag);
      cells[(size_t)y * (size_t)w + (size_t)x] = astar_grid_blocked(gr, x, y) ? '#'
                                                 : (c != 1 || tag != 0)       ? '~'
                                                                              : '.';
    }
  if (pidx) {
    int32_t i, len = (int32_t)compat_rawlen(L, pidx);
    for (i = 1; i <= len; i++) {
      double v;
      lua_rawgeti(L, pidx, i);
      v = lua_tonumber(L, -1);
      if (lua_type(L, -1) != LUA_TNUMBER || v != floor(v) || v < 1 || v > (double)n)
        return arg_error(L, 2,
                         lua_pushfstring(L, "path entry %d is not a cell id of this %s, got %s",
                                         (int)i, T->cls->what, describe(L, -1)));
      cells[(size_t)v - 1] = i == 1 ? 'S' : i == len ? 'G'
                                                     : '*';
      lua_pop(L, 1);
    }
  }
  luaL_buffinit(L, &b);
  T->cls->cells->text(&b, gr, cells, line);
  luaL_pushresult(&b);
  return 1;
}

/* __tostring works on a closed grid too (it says so). */
static int l_cells_tostring(lua_State *L) {
  const ltopo_class *cls = (const ltopo_class *)lua_touserdata(L, lua_upvalueindex(UV_CLASS));
  ltopo *T;
  if (topo_class_of(L, 1) != cls) type_error(L, 1, cls->mt);
  T = (ltopo *)lua_touserdata(L, 1);
  if (T->o.closed) lua_pushfstring(L, "%s (closed)", cls->mt);
  else
    lua_pushfstring(L, "%s (%dx%d, %s)", cls->mt, (int)astar_grid_width(T->grid),
                    (int)astar_grid_height(T->grid), cls->cells->detail(L, T->grid));
  return 1;
}

/* ------------------------------------------------------------------------ */
/* the world frame                                                            */
/* ------------------------------------------------------------------------ */

/* grid:to_world(x, y) -> wx, wy: the centre of cell (x, y) in the grid's
** world frame (cell_size, origin: lsmooth.c's world_frame; the shape says
** where its cells lie in it). */
static int l_cells_to_world(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y;
  double s, ox, oy, wx, wy;
  check_xy(L, T, 2, &x, &y);
  world_frame(L, &s, &ox, &oy);
  T->cls->cells->to_world(T->grid, x, y, s, &wx, &wy);
  lua_pushnumber(L, ox + wx);
  lua_pushnumber(L, oy + wy);
  return 2;
}

/* grid:to_cell(wx, wy) -> x, y, or nil when the point is outside the grid. */
static int l_cells_to_cell(lua_State *L) {
  ltopo *T = check_self(L);
  double wx = check_finite(L, 2, "x"), wy = check_finite(L, 3, "y"), s, ox, oy;
  int32_t x, y;
  world_frame(L, &s, &ox, &oy);
  if (!T->cls->cells->to_cell(T->grid, wx - ox, wy - oy, s, &x, &y)) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, x + 1);
  lua_pushinteger(L, y + 1);
  return 2;
}

/* grid:world() -> cell_size, ox, oy: the world frame. */
static int l_cells_world(lua_State *L) {
  double s, ox, oy;
  check_self(L);
  world_frame(L, &s, &ox, &oy);
  lua_pushnumber(L, s);
  lua_pushnumber(L, ox);
  lua_pushnumber(L, oy);
  return 3;
}

/* Reads the options table at arg of a grid constructor: `own` (the
** shape's keys beside cell_size and origin) checked for unknown keys, the
** world frame into w[3] (s, ox, oy; default 1, 0, 0).  Returns whether a
** table was given (the shape then reads its own keys). */
static int cells_options(lua_State *L, int arg, const char *const *own, int nown, double w[3]) {
  const char *keys[8];
  int i, given;
  for (i = 0; i < nown; i++) keys[i] = own[i];
  keys[nown] = "cell_size";
  keys[nown + 1] = "origin";
  given = check_fields(L, arg, keys, nown + 2);
  world_options(L, arg, &w[0], &w[1], &w[2]);
  return given;
}

/* A shape's options reader (its own keys and the world frame into w[3];
** returns the shape's parameter: the rule, the layout) and constructor. */
typedef int (*lcells_options_fn)(lua_State *L, int arg, double w[3]);
typedef astar_grid *(*lcells_new_fn)(int32_t width, int32_t height, int param,
                                     astar_alloc_fn alloc, void *ud);

/* astar.grid / astar.hex(width, height [, opts]): the sizes, the options,
** then the userdata and the grid in it (create first, acquire second),
** its world frame, its memory reported. */
static int cells_new(lua_State *L, const ltopo_class *cls, lcells_options_fn read_options,
                     lcells_new_fn make) {
  lstate *M = get_state(L);
  int32_t w = check_range(L, 1, "width", 1, ASTAR_GRID_MAX_SIDE);
  int32_t h = check_range(L, 2, "height", 1, ASTAR_GRID_MAX_SIDE);
  double world[3];
  ltopo *T;
  int param;
  lua_settop(L, 3);
  param = read_options(L, 3, world);
  if ((double)w * h >= (double)(1 << 30))
    return arg_error(L, 2, lua_pushfstring(L, "%s too large (width * height must be below 2^30)", cls->what));
  T = topo_new(L, cls);
  topo_attach(L, T, make(w, h, param, state_alloc, M));
  world_store(L, lua_gettop(L), world[0], world[1], world[2]);
  path_mt_new(L, T, lua_gettop(L));
  account(L, M);
  return 1;
}
