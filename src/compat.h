/*
** compat.h -- the few Lua C API differences between 5.1 (and LuaJIT), 5.2,
** 5.3 and 5.4 that the binding meets, behind one name each, so the binding
** files have no version #ifdefs of their own.
*/
#ifndef ASTAR_COMPAT_H
#define ASTAR_COMPAT_H

#include "lauxlib.h"
#include "lua.h"

#if LUA_VERSION_NUM >= 504
/* one user value per userdata: a table of the Lua values the C side keeps */
#define compat_newud(L, size) lua_newuserdatauv((L), (size), 1)
#define compat_setuv(L, idx) lua_setiuservalue((L), (idx), 1)
#define compat_getuv(L, idx) ((void)lua_getiuservalue((L), (idx), 1))
#elif LUA_VERSION_NUM >= 502
#define compat_newud(L, size) lua_newuserdata((L), (size))
#define compat_setuv(L, idx) lua_setuservalue((L), (idx))
#define compat_getuv(L, idx) lua_getuservalue((L), (idx))
#else
/* 5.1 / LuaJIT: the environment table plays the user value's part */
#define compat_newud(L, size) lua_newuserdata((L), (size))
#define compat_setuv(L, idx) ((void)lua_setfenv((L), (idx)))
#define compat_getuv(L, idx) lua_getfenv((L), (idx))
#endif

#if LUA_VERSION_NUM >= 502
#define compat_rawlen(L, idx) lua_rawlen((L), (idx))
#define compat_testudata(L, idx, name) luaL_testudata((L), (idx), (name))
#else
#define compat_rawlen(L, idx) lua_objlen((L), (idx))
static void *compat_testudata(lua_State *L, int idx, const char *name) {
  void *p = lua_touserdata(L, idx);
  if (p == NULL || !lua_getmetatable(L, idx)) return NULL;
  lua_getfield(L, LUA_REGISTRYINDEX, name);
  if (!lua_rawequal(L, -1, -2)) p = NULL;
  lua_pop(L, 2);
  return p;
}
#endif

#ifndef LUA_OK
#define LUA_OK 0
#endif

/* Integers print as integers in messages: 5.3+ has an integer subtype. */
#if LUA_VERSION_NUM >= 503
#define COMPAT_HAS_INTEGERS 1
#define compat_isinteger(L, idx) lua_isinteger((L), (idx))
#else
#define COMPAT_HAS_INTEGERS 0
#define compat_isinteger(L, idx) 0
#endif

/* Whether the collector runs (the user may have stopped it): 5.2+ and
** LuaJIT can tell; plain 5.1 cannot, and is assumed to run. */
#ifdef LUA_GCISRUNNING
#define compat_gc_running(L) lua_gc((L), LUA_GCISRUNNING, 0)
#else
#define compat_gc_running(L) 1
#endif

/* A collector step worth `kb` kilobytes of allocation: 5.5 takes the step
** in bytes, as a size_t (a vararg: passing an int there is undefined);
** 5.4 and earlier take kilobytes, as an int. */
#if LUA_VERSION_NUM >= 505
#define compat_gcstep(L, kb) lua_gc((L), LUA_GCSTEP, (size_t)(kb)*1024u)
#else
#define compat_gcstep(L, kb) lua_gc((L), LUA_GCSTEP, (int)(kb))
#endif

/* lua_pushstring returns the interned string from 5.2 on; 5.1's returns
** nothing. */
#if LUA_VERSION_NUM >= 502
#define compat_pushstring(L, s) lua_pushstring((L), (s))
#else
static const char *compat_pushstring(lua_State *L, const char *s) {
  lua_pushstring(L, s);
  return lua_tostring(L, -1);
}
#endif

#endif
