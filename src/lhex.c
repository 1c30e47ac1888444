/*
** lhex.c -- astar.Hex: a hex grid in offset coordinates (hex.c).  Cells are
** named as on square grids -- (x, y), 1-based, or cell ids y * w + x + 1 --
** so the class shares lgrid.c's functions (they read the shape), and paths,
** traces, distance fields and fields are the square grid's.  What is its
** own: the layout, neighbours and hex distance, hex line of sight, world
** coordinates of hexagons, and the offset-rows picture.  Included by
** lastar.c after lgrid.c.
**
** World coordinates follow the guide's "size": cell_size is the hexagon's
** outer radius (centre to corner), so neighbouring centres are
** sqrt(3) * cell_size apart; origin is the top-left corner of the
** rectangle around the hexagons (as on square grids, where it is the
** top-left corner of cell (1, 1)).
*/

#define HEX(T) (((lhex *)(T)->impl)->hx)
#define HEX_SQRT3 1.73205080756887729353

static const char *const layout_names[] = {
    [ASTAR_HEX_ODD_R] = "odd_r",
    [ASTAR_HEX_EVEN_R] = "even_r",
    [ASTAR_HEX_ODD_Q] = "odd_q",
    [ASTAR_HEX_EVEN_Q] = "even_q",
};

/* The class's core object: the hex grid and the state that allocated this
** box (its world frame is in the user value, as a square grid's: lsmooth.c's
** world_store / world_frame). */
typedef struct lhex {
  lstate *M;
  astar_hex *hx;
} lhex;

/* ------------------------------------------------------------------------ */
/* the class                                                                  */
/* ------------------------------------------------------------------------ */

static void hex_free(void *impl) {
  lhex *X = (lhex *)impl;
  astar_hex_free(X->hx);
  state_alloc(X->M, X, sizeof *X, 0);
}

static astar_topology *hex_topology(void *impl) { return astar_hex_topology(((lhex *)impl)->hx); }

static int hex_shape(ltopo *T, int32_t *w, int32_t *h) {
  *w = astar_hex_width(HEX(T));
  *h = astar_hex_height(HEX(T));
  return 1;
}

static int hex_layout_of(ltopo *T) { return astar_hex_layout(HEX(T)); }

/* path.length (every step is one cell long: the distance between centres,
** in cells), path.width and path.xy on demand (the square grid's). */
static void hex_path_extras(lua_State *L, ltopo *T, const int32_t *links, int32_t len) {
  (void)links;
  lua_pushnumber(L, (double)(len - 1));
  lua_setfield(L, -2, "length");
  lua_pushinteger(L, cells_width(T));
  lua_setfield(L, -2, "width");
  luaL_getmetatable(L, GRID_PATH_MT);
  lua_setmetatable(L, -2);
}

static const ltopo_class hex_class = {
    .mt = HEX_MT,
    .what = "hex grid",
    .node_args = 2,
    .max_tag = 65535,
    .free = hex_free,
    .topology = hex_topology,
    .shape = hex_shape,
    .check_node = grid_check_node,
    .list_node = grid_list_node,
    .push_node = grid_push_node,
    .node_name = grid_node_name,
    .push_step = grid_push_step,
    .step_name = grid_step_name,
    .cost_subject = grid_cost_subject,
    .step_word = "step",
    .path_extras = hex_path_extras,
    .trace_extras = grid_trace_extras,
    .push_distances = grid_push_distances,
    .layout = hex_layout_of,
};

/* ------------------------------------------------------------------------ */
/* construction                                                               */
/* ------------------------------------------------------------------------ */

/* Reads { layout =, cell_size =, origin = {ox, oy} } at arg (the world
** frame as square grids read it: lsmooth.c's world_options). */
static void hex_options(lua_State *L, int arg, int *layout, double w[3]) {
  static const char *const keys[] = {"layout", "cell_size", "origin"};
  *layout = ASTAR_HEX_ODD_R;
  if (check_fields(L, arg, keys, 3)) {
    lua_getfield(L, arg, "layout");
    if (!lua_isnil(L, -1))
      *layout = check_choice(L, arg, lua_gettop(L), "layout", layout_names,
                             COUNT_OF(layout_names), "");
    lua_pop(L, 1);
  }
  world_options(L, arg, &w[0], &w[1], &w[2]);
}

/* astar.hex(width, height [, { layout =, cell_size =, origin = }]) -> an
** open hex grid (odd_r by default). */
static int l_hex_new(lua_State *L) {
  lstate *M = get_state(L);
  int32_t w = check_range(L, 1, "width", 1, ASTAR_GRID_MAX_SIDE);
  int32_t h = check_range(L, 2, "height", 1, ASTAR_GRID_MAX_SIDE);
  int layout;
  double world[3];
  lhex *X;
  ltopo *T;
  lua_settop(L, 3);
  hex_options(L, 3, &layout, world);
  if ((double)w * h >= (double)(1 << 30))
    return arg_error(L, 2, "hex grid too large (width * height must be below 2^30)");
  T = topo_new(L, &hex_class);
  X = (lhex *)state_alloc(M, NULL, 0, sizeof *X);
  if (X != NULL) {
    X->M = M;
    X->hx = astar_hex_new(w, h, layout, state_alloc, M);
    if (X->hx == NULL) {
      state_alloc(M, X, sizeof *X, 0);
      X = NULL;
    }
  }
  topo_attach(L, T, X);
  world_store(L, lua_gettop(L), world[0], world[1], world[2]);
  account(L, M);
  return 1;
}

/* ------------------------------------------------------------------------ */
/* cells                                                                      */
/* ------------------------------------------------------------------------ */

static int l_hex_set_blocked(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y;
  int b;
  check_xy(L, T, 2, &x, &y);
  b = check_bool(L, 4);
  check_mutable(L, T);
  astar_hex_set_blocked(HEX(T), x, y, b);
  return 0;
}

static int l_hex_is_blocked(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y;
  check_xy(L, T, 2, &x, &y);
  lua_pushboolean(L, astar_hex_blocked(HEX(T), x, y));
  return 1;
}

/* hex:set_cost(x, y, cost): every step into the cell costs `cost`. */
static int l_hex_set_cost(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y;
  double c;
  check_xy(L, T, 2, &x, &y);
  c = check_cost(L, 4, "cost");
  check_mutable(L, T);
  if (astar_hex_set_cost(HEX(T), x, y, c) != ASTAR_OK) return luaL_error(L, "not enough memory");
  account(L, T->o.M);
  return 0;
}

static int l_hex_get_cost(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y;
  double c;
  check_xy(L, T, 2, &x, &y);
  astar_hex_cost(HEX(T), x, y, &c);
  lua_pushnumber(L, c);
  return 1;
}

/* hex:set_tag(x, y, name): as grid:set_tag (protected when a name may be
** interned). */
static int hex_set_tag(lua_State *L, lcall *C) {
  ltopo *T = check_self(L);
  int32_t x, y, tag = 0;
  if (C) hold(L, C, &T->o, 0);
  check_xy(L, T, 2, &x, &y);
  if (!lua_isnoneornil(L, 4) && lua_type(L, 4) != LUA_TSTRING)
    type_error(L, 4, "string (tag name)");
  check_mutable(L, T);
  if (!lua_isnoneornil(L, 4)) {
    tag = intern_tag(L, 1, 4, hex_class.max_tag);
    check_mutable(L, T); /* a finalizer's search ended */
  }
  if (astar_hex_set_tag(HEX(T), x, y, tag) != ASTAR_OK) return luaL_error(L, "not enough memory");
  return 0;
}

static int hex_set_tag_named(lua_State *L) { return hex_set_tag(L, call_frame(L)); }

static int l_hex_set_tag(lua_State *L) {
  if (!lua_isnoneornil(L, 4) && lua_type(L, 4) == LUA_TSTRING)
    return l_protected(L); /* hex_set_tag_named */
  hex_set_tag(L, NULL);
  account(L, get_state(L));
  return 0;
}

static int l_hex_get_tag(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y, tag;
  check_xy(L, T, 2, &x, &y);
  astar_hex_tag(HEX(T), x, y, &tag);
  push_tag_name(L, 1, tag);
  return 1;
}

static int l_hex_layout(lua_State *L) {
  lua_pushstring(L, layout_names[astar_hex_layout(HEX(check_self(L)))]);
  return 1;
}

/* hex:neighbours(x, y) -> { {x, y}, ... }: the cells next to (x, y) inside
** the grid, blocked or not, east first, then counter-clockwise. */
static int l_hex_neighbours(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x, y, xy[16];
  int i, n;
  check_xy(L, T, 2, &x, &y);
  n = astar_hex_neighbours(HEX(T), x, y, xy);
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

/* hex:distance(x1, y1, x2, y2) -> the number of steps on open ground. */
static int l_hex_distance(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x0, y0, x1, y1;
  check_xy(L, T, 2, &x0, &y0);
  check_xy(L, T, 4, &x1, &y1);
  lua_pushinteger(L, astar_hex_distance(HEX(T), x0, y0, x1, y1));
  return 1;
}

/* hex:line_of_sight(x1, y1, x2, y2): symmetric (hex.c: hex_sight). */
static int l_hex_line_of_sight(lua_State *L) {
  ltopo *T = check_self(L);
  int32_t x0, y0, x1, y1;
  check_xy(L, T, 2, &x0, &y0);
  check_xy(L, T, 4, &x1, &y1);
  lua_pushboolean(L, astar_hex_line_of_sight(HEX(T), x0, y0, x1, y1) == 1);
  return 1;
}

/* hex:visible_from(x, y [, radius]) -> field: 1 where (x, y) sees the cell,
** within radius steps.  Protected: making the field may run a finalizer. */
static int l_hex_visible_from(lua_State *L) {
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 0);
  int32_t x, y, w, h;
  double radius = -1;
  lfield *F;
  check_xy(L, T, 2, &x, &y);
  if (!lua_isnoneornil(L, 4)) radius = check_cost(L, 4, "radius");
  hex_shape(T, &w, &h);
  F = field_new(L, 1, w, h, 0, 0);
  astar_hex_visible_from(HEX(T), x, y, radius, F->v);
  return 1;
}

/* ------------------------------------------------------------------------ */
/* world coordinates                                                          */
/* ------------------------------------------------------------------------ */

/* The unit centre (astar_hex_center) of the rectangle's left column ("r"
** layouts) or top row ("q" layouts): the smaller of the first two lines',
** as if a one-line grid had a second. */
static double hex_edge(int layout) {
  double a0, b0, a1, b1;
  astar_hex_center(layout, 0, 0, &a0, &b0);
  if (layout == ASTAR_HEX_ODD_R || layout == ASTAR_HEX_EVEN_R) {
    astar_hex_center(layout, 0, 1, &a1, &b1);
    return a0 < a1 ? a0 : a1;
  }
  astar_hex_center(layout, 1, 0, &a1, &b1);
  return b0 < b1 ? b0 : b1;
}

/* hex:to_world(x, y) -> wx, wy: the centre of the cell's hexagon. */
static int l_hex_to_world(lua_State *L) {
  ltopo *T = check_self(L);
  int layout = astar_hex_layout(HEX(T));
  int32_t x, y;
  double cx, cy, size, ox, oy, k;
  check_xy(L, T, 2, &x, &y);
  world_frame(L, &size, &ox, &oy);
  k = HEX_SQRT3 * size;
  astar_hex_center(layout, x, y, &cx, &cy);
  if (layout == ASTAR_HEX_ODD_R || layout == ASTAR_HEX_EVEN_R) {
    lua_pushnumber(L, ox + (cx - hex_edge(layout)) * k + 0.5 * k);
    lua_pushnumber(L, oy + cy * k + size);
  } else {
    lua_pushnumber(L, ox + cx * k + size);
    lua_pushnumber(L, oy + (cy - hex_edge(layout)) * k + 0.5 * k);
  }
  return 2;
}

/* hex:to_cell(wx, wy) -> x, y: the cell whose hexagon holds the point, or
** nil outside the grid. */
static int l_hex_to_cell(lua_State *L) {
  ltopo *T = check_self(L);
  int layout = astar_hex_layout(HEX(T));
  double wx = check_finite(L, 2, "x"), wy = check_finite(L, 3, "y");
  double size, ox, oy, k, px, py;
  int32_t x, y;
  world_frame(L, &size, &ox, &oy);
  k = HEX_SQRT3 * size;
  if (layout == ASTAR_HEX_ODD_R || layout == ASTAR_HEX_EVEN_R) {
    px = (wx - ox - 0.5 * k) / k + hex_edge(layout);
    py = (wy - oy - size) / k;
  } else {
    px = (wx - ox - size) / k;
    py = (wy - oy - 0.5 * k) / k + hex_edge(layout);
  }
  if (!astar_hex_cell_at(HEX(T), px, py, &x, &y)) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, x + 1);
  lua_pushinteger(L, y + 1);
  return 2;
}

/* ------------------------------------------------------------------------ */
/* text                                                                       */
/* ------------------------------------------------------------------------ */

/*
** hex:to_string([path]) -> the map as text, one character a cell as
** grid:to_string ('#', '.', '~', and 'S', '*', 'G' for a path), cells two
** columns apart.  "r" layouts: a line per row, the shoved rows indented by
** one space.  "q" layouts: two lines per row, the upper columns of the
** row on the first, the shoved (lower) ones on the second.  Protected.
*/
static int l_hex_to_string(lua_State *L) {
  lcall *C = call_frame(L);
  ltopo *T = hold_self(L, C, 0);
  const astar_hex *hx = HEX(T);
  int32_t w = astar_hex_width(hx), h = astar_hex_height(hx), x, y;
  int layout = astar_hex_layout(hx);
  int columns = layout == ASTAR_HEX_ODD_Q || layout == ASTAR_HEX_EVEN_Q;
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
      astar_hex_cost(hx, x, y, &c);
      astar_hex_tag(hx, x, y, &tag);
      cells[(size_t)y * (size_t)w + (size_t)x] = astar_hex_blocked(hx, x, y) ? '#'
                                                 : (c != 1 || tag != 0)      ? '~'
                                                                             : '.';
    }
  if (pidx) {
    int32_t i, len = (int32_t)compat_rawlen(L, pidx);
    for (i = 1; i <= len; i++) {
      double v;
      lua_rawgeti(L, pidx, i);
      v = lua_tonumber(L, -1);
      if (lua_type(L, -1) != LUA_TNUMBER || v != floor(v) || v < 1 || v > (double)n)
        return arg_error(L, 2, lua_pushfstring(L, "path entry %d is not a cell id of this hex grid, got %s", (int)i, describe(L, -1)));
      cells[(size_t)v - 1] = i == 1 ? 'S' : i == len ? 'G'
                                                     : '*';
      lua_pop(L, 1);
    }
  }
  luaL_buffinit(L, &b);
  for (y = 0; y < h; y++) {
    int half;
    for (half = 0; half < (columns ? 2 : 1); half++) {
      size_t len = 0;
      int shoved = !columns && (layout == ASTAR_HEX_ODD_R ? (y & 1) : !(y & 1));
      if (shoved) line[len++] = ' ';
      for (x = 0; x < w; x++) {
        int lower = layout == ASTAR_HEX_ODD_Q ? (x & 1) : !(x & 1);
        char ch = cells[(size_t)y * (size_t)w + (size_t)x];
        if (columns && lower != half) ch = ' ';
        if (x > 0) line[len++] = ' ';
        line[len++] = ch;
      }
      while (len > 0 && line[len - 1] == ' ') len--;
      luaL_addlstring(&b, line, len);
      luaL_addchar(&b, '\n');
    }
  }
  luaL_pushresult(&b);
  return 1;
}

/* __tostring works on a closed hex grid too (it says so). */
static int l_hex_tostring(lua_State *L) {
  ltopo *T;
  if (topo_class_of(L, 1) != &hex_class) type_error(L, 1, HEX_MT);
  T = (ltopo *)lua_touserdata(L, 1);
  if (T->o.closed) lua_pushliteral(L, "astar.Hex (closed)");
  else
    lua_pushfstring(L, "astar.Hex (%dx%d, layout %s)", (int)astar_hex_width(HEX(T)),
                    (int)astar_hex_height(HEX(T)), layout_names[astar_hex_layout(HEX(T))]);
  return 1;
}
