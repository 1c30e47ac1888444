/*
** largs.c -- arguments and errors: every check the binding makes on a Lua
** value, and the wording of its messages.  Included by lastar.c.
**
** Messages follow Lua's own libraries: "bad argument #3 to 'add_edge'
** (cost must be a finite number >= 0, got -1)" -- lowercase, the function,
** the argument, the value, never a C file or line.  Every function knows
** its own name (an upvalue), so the message reads the same on every Lua and
** through aliases and tail calls (LuaJIT loses the caller's frame in a tail
** call and would say '?').  Debug information still decides whether self
** counts: a method called with ':' numbers its arguments from the first
** after self, one called with '.' from self; when the information is gone,
** ':' is assumed.  A bad self is "#1" either way.
**
** Tables of named fields (options, legend entries) follow one rule: their
** values are read with ordinary indexing, so defaults inherited through
** __index apply, and every key they hold themselves must be a known one.
*/

/* The largest count an option takes (max_expansions, samples): every
** integer up to it is exact in a double. */
#define COUNT_MAX 9007199254740992.0
#define COUNT_MAX_TEXT "2^53"

#define COUNT_OF(a) ((int)(sizeof(a) / sizeof *(a)))

/* Raises a message at the position of the Lua code that called the
** module's function, as luaL_error does for a plain C function: a protected
** body (UV_BODY true) runs under its entry's pcall, so that code is one
** level further up.  Every error of the binding's functions goes through
** here (option-name errors included), so each carries its "file:line:". */
static int raise_error(lua_State *L, const char *fmt, ...) {
  va_list ap;
  int level = lua_type(L, lua_upvalueindex(UV_BODY)) == LUA_TBOOLEAN ? 2 : 1;
  luaL_where(L, level);
  va_start(ap, fmt);
  lua_pushvfstring(L, fmt, ap);
  va_end(ap);
  lua_concat(L, 2);
  return lua_error(L);
}

static int arg_error(lua_State *L, int arg, const char *msg) {
  lua_Debug ar;
  const char *fname = lua_tostring(L, lua_upvalueindex(UV_NAME));
  int method = lua_toboolean(L, lua_upvalueindex(UV_METHOD));
  /* a protected body (UV_BODY true, where an entry holds a function) runs
  ** under pcall: its caller is one level up */
  int level = lua_type(L, lua_upvalueindex(UV_BODY)) == LUA_TBOOLEAN ? 1 : 0;
  if (fname == NULL) fname = "?";
  if (method && arg > 1) {
    int colon = 1;
    if (lua_getstack(L, level, &ar) && lua_getinfo(L, "n", &ar) && ar.name != NULL)
      colon = ar.namewhat != NULL && strcmp(ar.namewhat, "method") == 0;
    if (colon) arg--;
  }
  return raise_error(L, "bad argument #%d to '%s' (%s)", arg, fname, msg);
}

/* The running function's name, for messages that are not about one
** argument ("cannot call 'set_blocked': ..."). */
static const char *fname_of(lua_State *L) {
  const char *n = lua_tostring(L, lua_upvalueindex(UV_NAME));
  return n ? n : "?";
}

/* The one place a core status becomes a Lua error (searches add what their
** error info says about costs: lresult.c's search_error).  Arguments are
** checked before the core sees them, so only out of memory is expected;
** anything else is named by the running function and the status. */
static int status_error(lua_State *L, int rc) {
  if (rc == ASTAR_ENOMEM) return luaL_error(L, "not enough memory");
  return raise_error(L, "%s: %s", fname_of(L), astar_status_name(rc));
}

/* rc when the core call succeeded (any status >= 0); raises otherwise. */
static int check_status(lua_State *L, int rc) {
  if (rc < 0) status_error(L, rc);
  return rc;
}

/* Pushes a number as messages show it: integers as integers (the integer
** subtype, and floats with an integral value below 2^63), nan and inf by
** name, others with 14 significant digits. */
static const char *push_number(lua_State *L, int idx) {
  char buf[64];
  double v = lua_tonumber(L, idx);
#if COMPAT_HAS_INTEGERS
  if (compat_isinteger(L, idx)) return lua_pushfstring(L, "%I", lua_tointeger(L, idx));
#endif
  if (v != v) return compat_pushstring(L, "nan");
  if (v == HUGE_VAL) return compat_pushstring(L, "inf");
  if (v == -HUGE_VAL) return compat_pushstring(L, "-inf");
  if (v == floor(v) && fabs(v) < 9223372036854775808.0) snprintf(buf, sizeof buf, "%.0f", v);
  else snprintf(buf, sizeof buf, "%.14g", v);
  return compat_pushstring(L, buf);
}

/* Pushes a short description of the value at idx for error messages:
** numbers as push_number, strings quoted (cut after 37 characters),
** booleans and nil by name, our userdata by type name, anything else by
** type. */
static const char *describe(lua_State *L, int idx) {
  idx = idx < 0 && idx > LUA_REGISTRYINDEX ? lua_gettop(L) + idx + 1 : idx;
  switch (lua_type(L, idx)) {
    case LUA_TNUMBER: return push_number(L, idx);
    case LUA_TSTRING: {
      size_t len;
      const char *s = lua_tolstring(L, idx, &len);
      char buf[48];
      if (len > 40) { /* lua_pushfstring has no precision: cut it here */
        snprintf(buf, sizeof buf, "\"%.37s...\"", s);
        return compat_pushstring(L, buf);
      }
      return lua_pushfstring(L, "\"%s\"", s);
    }
    case LUA_TBOOLEAN:
      return compat_pushstring(L, lua_toboolean(L, idx) ? "true" : "false");
    case LUA_TUSERDATA:
      /* our types by name ("astar.Grid"): every metatable made here has one */
      if (luaL_getmetafield(L, idx, "__name")) {
        if (lua_type(L, -1) == LUA_TSTRING) return lua_tostring(L, -1);
        lua_pop(L, 1);
      }
      return compat_pushstring(L, "userdata");
    default: return compat_pushstring(L, luaL_typename(L, idx));
  }
}

static const char *describe_number(lua_State *L, double v) {
  const char *s;
  lua_pushnumber(L, v);
  s = describe(L, -1);
  lua_remove(L, -2);
  return s;
}

/* The type name of the value at idx for "got ..." in messages: our
** userdata by their metatable's __name ("astar.Grid"), like 5.3+ would;
** "no value" for an absent argument. */
static const char *type_name(lua_State *L, int idx) {
  if (lua_type(L, idx) == LUA_TUSERDATA && luaL_getmetafield(L, idx, "__name")) {
    const char *n = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (n != NULL) return n; /* the string stays on the stack while used */
    lua_pop(L, 1);
  }
  return luaL_typename(L, idx);
}

/* "<what> expected, got <type>" as a bad-argument error (lauxlib's wording;
** 5.3 has no public luaL_typeerror). */
static int type_error(lua_State *L, int arg, const char *what) {
  const char *got = type_name(L, arg);
  return arg_error(L, arg, lua_pushfstring(L, "%s expected, got %s", what, got));
}

/* A finite number, no string coercion: "4" is refused like any string. */
static double check_finite(lua_State *L, int arg, const char *name) {
  double v;
  if (lua_type(L, arg) != LUA_TNUMBER) type_error(L, arg, "number");
  v = lua_tonumber(L, arg);
  if (!isfinite(v))
    arg_error(L, arg, lua_pushfstring(L, "%s must be a finite number, got %s", name, describe(L, arg)));
  return v;
}

static double check_cost(lua_State *L, int arg, const char *name) {
  double v;
  if (lua_type(L, arg) != LUA_TNUMBER) type_error(L, arg, "number");
  v = lua_tonumber(L, arg);
  if (!(v >= 0) || !isfinite(v))
    arg_error(L, arg, lua_pushfstring(L, "%s must be a finite number >= 0, got %s", name, describe(L, arg)));
  return v;
}

/* An id in 1..count (what = "node", "edge", "cell"; owner = "graph",
** "grid"), returned 0-based.  Range errors say what exists. */
static int32_t check_id(lua_State *L, int arg, const char *what, int32_t count,
                        const char *owner) {
  double v;
  if (lua_type(L, arg) != LUA_TNUMBER) {
    const char *got = type_name(L, arg); /* before pushing anything */
    return (int32_t)arg_error(L, arg, lua_pushfstring(L, "%s id expected, got %s", what, got));
  }
  v = lua_tonumber(L, arg);
  if (v != floor(v) || !isfinite(v))
    arg_error(L, arg, lua_pushfstring(L, "%s id must be an integer, got %s", what, describe(L, arg)));
  if (v < 1 || v > count) {
    if (count == 0)
      arg_error(L, arg, lua_pushfstring(L, "%s %s does not exist (the %s has no %ss)", what, describe(L, arg), owner, what));
    arg_error(L, arg, lua_pushfstring(L, "%s %s does not exist (the %s has %d %s%s)", what, describe(L, arg), owner, (int)count, what, count == 1 ? "" : "s"));
  }
  return (int32_t)v - 1;
}

/* An integer in lo..hi (sizes, coordinates). */
static int32_t check_range(lua_State *L, int arg, const char *name, int32_t lo,
                           int32_t hi) {
  double v;
#if COMPAT_HAS_INTEGERS
  if (lua_isinteger(L, arg)) { /* the usual case, in two light calls */
    lua_Integer i = lua_tointeger(L, arg);
    if (i >= lo && i <= hi) return (int32_t)i;
  }
#endif
  if (lua_type(L, arg) != LUA_TNUMBER) type_error(L, arg, "number");
  v = lua_tonumber(L, arg);
  /* in range (NaN is not) and whole: no libm call on every argument */
  if (!(v >= lo && v <= hi) || (double)(int32_t)v != v)
    arg_error(L, arg, lua_pushfstring(L, "%s must be an integer in %d..%d, got %s", name, (int)lo, (int)hi, describe(L, arg)));
  return (int32_t)v;
}

/* A count in 1..max (max <= 2^53) read from the value at v, for argument
** arg; max_text is how the message states the bound. */
static uint64_t check_count(lua_State *L, int arg, int v, const char *name, double max,
                            const char *max_text) {
  double d = lua_type(L, v) == LUA_TNUMBER ? lua_tonumber(L, v) : 0;
  if (lua_type(L, v) != LUA_TNUMBER || !(d >= 1) || d != floor(d) || d > max)
    arg_error(L, arg, lua_pushfstring(L, "%s must be an integer in 1..%s, got %s", name, max_text, describe(L, v)));
  return (uint64_t)d;
}

/* luaL_checkudata with one message on every Lua: "astar.Grid expected, got
** astar.Graph" (5.1 would say "got userdata"). */
static void *check_ud(lua_State *L, int arg, const char *mt) {
  void *p = compat_testudata(L, arg, mt);
  if (p == NULL) type_error(L, arg, mt);
  return p;
}

static int check_bool(lua_State *L, int arg) {
  if (lua_type(L, arg) != LUA_TBOOLEAN) type_error(L, arg, "boolean");
  return lua_toboolean(L, arg);
}

/* A function or a callable table.  No collector step runs here (see
** topo_class_of): option parsing calls it before holding every field. */
static int is_callable(lua_State *L, int idx) {
  int callable;
  if (lua_type(L, idx) == LUA_TFUNCTION) return 1;
  if (!lua_getmetatable(L, idx)) return 0;
  lua_getfield(L, -1, "__call");
  callable = lua_type(L, -1) != LUA_TNIL;
  lua_pop(L, 2);
  return callable;
}

/* Reads the string at vidx as one of names[0..n-1] (NULL entries skipped);
** raises naming the option and the accepted values, after `also` (e.g.
** "a function, a registered name or "). */
static int check_choice(lua_State *L, int arg, int vidx, const char *opt,
                        const char *const names[], int n, const char *also) {
  luaL_Buffer b;
  int i, listed = 0, last = -1;
  if (lua_type(L, vidx) == LUA_TSTRING) {
    const char *s = lua_tostring(L, vidx);
    for (i = 0; i < n; i++)
      if (names[i] && strcmp(s, names[i]) == 0) return i;
  }
  for (i = 0; i < n; i++)
    if (names[i]) last = i;
  luaL_buffinit(L, &b);
  for (i = 0; i < n; i++) {
    if (!names[i]) continue;
    lua_pushfstring(L, "%s\"%s\"", listed == 0 ? "" : i == last ? " or "
                                                                : ", ",
                    names[i]);
    luaL_addvalue(&b);
    listed++;
  }
  luaL_pushresult(&b);
  {
    const char *choices = lua_tostring(L, -1);
    const char *got = describe(L, vidx);
    return arg_error(L, arg, lua_pushfstring(L, "%s must be %s%s, got %s", opt, also, choices, got));
  }
}

/* Checks the table of named fields at arg: a table (or absent), whose own
** keys are all among names[0..n-1]; values are then read with
** lua_getfield, so __index defaults apply. */
static int check_fields(lua_State *L, int arg, const char *const names[], int n) {
  if (lua_isnoneornil(L, arg)) return 0;
  if (!lua_istable(L, arg)) type_error(L, arg, "table");
  lua_pushnil(L);
  while (lua_next(L, arg)) {
    int ok = 0, i;
    lua_pop(L, 1);
    if (lua_type(L, -1) == LUA_TSTRING)
      for (i = 0; i < n && !ok; i++) ok = strcmp(lua_tostring(L, -1), names[i]) == 0;
    if (!ok) arg_error(L, arg, lua_pushfstring(L, "unknown option %s", describe(L, -1)));
  }
  return 1;
}
