/*
** lgrid.c -- astar.Grid: square grids of cells, 4- or 8-connected.  What is
** the square shape's own in Lua: its constructor and diagonal rule, how its
** cells lie in the world frame and in text, path lengths and field discs in
** its metric.  The methods every grid shares are lcells.c's; text I/O from
** strings is ltext.c.  Included by lastar.c after lcells.c.
*/

static const char *const diagonal_names[] = {
    [ASTAR_DIAG_NEVER] = "never",
    [ASTAR_DIAG_NO_CORNER_CUTTING] = "no_corner_cutting",
    [ASTAR_DIAG_ONE_OBSTACLE] = "one_obstacle",
    [ASTAR_DIAG_ALWAYS] = "always",
};

/* ------------------------------------------------------------------------ */
/* the picture                                                                */
/* ------------------------------------------------------------------------ */

/* Cell (x, y) is the square [x s, (x + 1) s) x [y s, (y + 1) s) from the
** origin; a point on a border between cells belongs to the cell right of /
** below it (the grid's right and bottom edges are outside). */
static void square_to_world(const astar_grid *gr, int32_t x, int32_t y, double s, double *wx,
                            double *wy) {
  (void)gr;
  *wx = (x + 0.5) * s;
  *wy = (y + 0.5) * s;
}

static int square_to_cell(const astar_grid *gr, double wx, double wy, double s, int32_t *x,
                          int32_t *y) {
  double fx = floor(wx / s), fy = floor(wy / s);
  if (!(fx >= 0 && fy >= 0 && fx < astar_grid_width(gr) && fy < astar_grid_height(gr))) return 0;
  *x = (int32_t)fx;
  *y = (int32_t)fy;
  return 1;
}

/* A line per row. */
static void square_text(luaL_Buffer *b, const astar_grid *gr, const char *cells, char *line) {
  int32_t w = astar_grid_width(gr), h = astar_grid_height(gr), y;
  (void)line;
  for (y = 0; y < h; y++) {
    luaL_addlstring(b, cells + (size_t)y * (size_t)w, (size_t)w);
    luaL_addchar(b, '\n');
  }
}

static const char *square_detail(lua_State *L, const astar_grid *gr) {
  return lua_pushfstring(L, "diagonal %s", diagonal_names[astar_grid_diagonal(gr)]);
}

/* Discs are Euclidean, in cells: the metric needs nothing of the grid. */
static int square_metric(const astar_grid *gr) {
  (void)gr;
  return 0;
}

static int square_within(int metric, int32_t x0, int32_t y0, int32_t x, int32_t y,
                         double radius) {
  double ddx = x - x0, ddy = y - y0;
  (void)metric;
  return ddx * ddx + ddy * ddy <= radius * radius;
}

/* Steps 0..3 are cardinal (1 long), 4..7 diagonal (the grid's sqrt 2). */
static const lcells_ops square_cells = {{1.0, 1.0, 1.0, 1.0, ASTAR_GRID_DIAG, ASTAR_GRID_DIAG,
                                         ASTAR_GRID_DIAG, ASTAR_GRID_DIAG},
                                        square_to_world,
                                        square_to_cell,
                                        square_text,
                                        square_detail,
                                        square_metric,
                                        square_within};

static const ltopo_class grid_class = CELLS_CLASS(GRID_MT, "grid", &square_cells);

/* ------------------------------------------------------------------------ */
/* construction and the rule                                                  */
/* ------------------------------------------------------------------------ */

/* Reads { diagonal = rule, cell_size = s, origin = {ox, oy} } at arg (also
** grid_from_string's options): returns the rule (default
** no_corner_cutting) and the world frame into w[3]. */
static int square_options(lua_State *L, int arg, double w[3]) {
  static const char *const own[] = {"diagonal"};
  int diag = ASTAR_DIAG_NO_CORNER_CUTTING;
  if (cells_options(L, arg, own, COUNT_OF(own), w)) {
    lua_getfield(L, arg, "diagonal");
    if (!lua_isnil(L, -1))
      diag = check_choice(L, arg, lua_gettop(L), "diagonal", diagonal_names,
                          COUNT_OF(diagonal_names), "");
    lua_pop(L, 1);
  }
  return diag;
}

/* astar.grid(width, height [, { diagonal =, cell_size =, origin = }]) -> an
** open grid (diagonal no_corner_cutting by default). */
static int l_grid_new(lua_State *L) {
  return cells_new(L, &grid_class, square_options, astar_grid_new);
}

static int l_grid_diagonal(lua_State *L) {
  lua_pushstring(L, diagonal_names[astar_grid_diagonal(check_self(L)->grid)]);
  return 1;
}

/* ------------------------------------------------------------------------ */
/* the jump table (precomputed jump point search, jpsplus.c)                  */
/* ------------------------------------------------------------------------ */

/* grid:precompute_jumps([on]) -> grid: builds the jump table (on true or
** absent; its whole cost is paid here) or drops it (false).  Refused on a
** grid whose rule is not no_corner_cutting or a side above the limit. */
static int l_grid_precompute_jumps(lua_State *L) {
  ltopo *T = check_self(L);
  int on = lua_isnoneornil(L, 2) ? 1 : check_bool(L, 2), rc;
  int diag = astar_grid_diagonal(T->grid);
  if (on && diag != ASTAR_DIAG_NO_CORNER_CUTTING)
    return raise_error(L, "grid:precompute_jumps: needs diagonal rule no_corner_cutting (this grid's: %s)",
                       diagonal_names[diag]);
  if (on && (astar_grid_width(T->grid) > ASTAR_JUMP_MAX_SIDE ||
             astar_grid_height(T->grid) > ASTAR_JUMP_MAX_SIDE))
    return raise_error(L, "grid:precompute_jumps: a side above %d cells", ASTAR_JUMP_MAX_SIDE);
  check_mutable(L, T);
  rc = astar_grid_precompute_jumps(T->grid, on);
  check_status(L, rc);
  account(L, T->o.M);
  lua_settop(L, 1);
  return 1;
}

/* grid:has_jumps() -> whether the grid holds a jump table, whether "auto"
** takes it. */
static int l_grid_has_jumps(lua_State *L) {
  int has = astar_grid_has_jumps(check_self(L)->grid);
  lua_pushboolean(L, has > 0);
  lua_pushboolean(L, has == 2);
  return 2;
}

/* core._jump_table(grid) -> the table's bytes (specs compare a repaired
** table with a fresh build), or nil without one. */
static int l_jump_table(lua_State *L) {
  ltopo *T = check_topo(L, 1, &grid_class);
  size_t n;
  const int8_t *e = astar_grid_jump_table(T->grid, &n);
  if (e == NULL) return 0;
  lua_pushlstring(L, (const char *)e, n * sizeof *e);
  return 1;
}

/* The grid of cells (either shape) at idx, open. */
static ltopo *check_cells_arg(lua_State *L, int idx) {
  ltopo *T = check_topo(L, idx, NULL);
  if (T->grid == NULL) type_error(L, idx, "grid of cells");
  return T;
}

/* core._set_blocked_all(grid, cells) -> grid: every cell's blocked bit at
** once: blocked the cells listed (cell ids, 1-based, repeats allowed), open
** every other.  astar.grid_from_table and astar.hex_from_table load their
** maps through it, so the labels are built once, in the call
** (astar_grid_set_blocked_all), not marked cell by cell for the first
** question to relabel.  The list is read raw. */
static int l_set_blocked_all(lua_State *L) {
  ltopo *T = check_cells_arg(L, 1);
  int32_t n = astar_grid_width(T->grid) * astar_grid_height(T->grid);
  size_t i, len;
  unsigned char *cells;
  if (!lua_istable(L, 2)) type_error(L, 2, "table (a list of cell ids)");
  check_mutable(L, T);
  cells = (unsigned char *)lua_newuserdata(L, (size_t)n); /* may run a finalizer: */
  T = check_cells_arg(L, 1);                              /* checked again after */
  check_mutable(L, T);
  memset(cells, 0, (size_t)n);
  len = compat_rawlen(L, 2);
  for (i = 1; i <= len; i++) { /* nothing allocates until the grid is written */
    double v;
    lua_rawgeti(L, 2, (int)i);
    v = lua_tonumber(L, -1);
    if (lua_type(L, -1) != LUA_TNUMBER || !(v >= 1 && v <= (double)n) || v != floor(v))
      return arg_error(L, 2, lua_pushfstring(L, "cells[%d] must be a cell id in 1..%d, got %s", (int)i, (int)n, describe(L, -1)));
    cells[(int32_t)v - 1] = 1;
    lua_pop(L, 1);
  }
  check_status(L, astar_grid_set_blocked_all(T->grid, cells));
  account(L, T->o.M);
  lua_settop(L, 1);
  return 1;
}

/* core._components_current(grid) -> whether the grid's component labels
** describe it as it is, so that the next question (connected, a search's
** unreachable proof) labels nothing (astar_topology_components_current). */
static int l_components_current(lua_State *L) {
  ltopo *T = check_topo(L, 1, NULL);
  lua_pushboolean(L, astar_topology_components_current(T->t) == 1);
  return 1;
}
