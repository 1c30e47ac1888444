-- Hostile input to the backend choice (lua/astar/backend.lua): the
-- environment variable ASTAR_BACKEND takes "lua" or "native" (or nothing);
-- anything else is refused by name, and "native" without a loadable native
-- module is an error instead of a silent fallback.  Each case runs in a
-- fresh interpreter (the choice is made once, at the first require).
local helpers = require("helpers")
local quote, run = helpers.quote, helpers.run

-- the interpreter running this spec (busted --lua=...): the lowest arg index
local function lua_binary()
  local i, bin = -1, nil
  while arg and arg[i] do bin, i = arg[i], i - 1 end
  return bin or "lua5.4"
end
local LUA = lua_binary()
local function lua_with(env, code, cpath)
  return run(("env %s LUA_PATH='lua/?.lua;lua/?/init.lua;;' LUA_CPATH=%s %s -e %s"):format(
    env, quote(cpath or "build/?.so;;"), quote(LUA), quote(code)))
end

describe("ASTAR_BACKEND #pure", function()
  it("lua serves the pure-Lua backend, whatever else loads", function()
    local ok, out = lua_with("ASTAR_BACKEND=lua", 'local a = require("astar"); io.write(a.backend, " ", '
      .. 'a.grid(3, 3):find_path(1, 1, 3, 3).cost)')
    assert(ok, out)
    assert.is_truthy(out:find("^lua 2%.82842712"), out)
  end)

  it("an unknown value is refused by name", function()
    local ok, out = lua_with("ASTAR_BACKEND=fast", 'require("astar")')
    assert.is_false(ok)
    assert.is_truthy(out:find('ASTAR_BACKEND must be "native" or "lua", got "fast"', 1, true), out)
  end)

  it("native without a loadable native module is an error, not a fallback", function()
    local ok, out = lua_with("ASTAR_BACKEND=native", 'require("astar")', "/nonexistent/?.so")
    assert.is_false(ok)
    assert.is_truthy(out:find("module 'astar.core' not found", 1, true), out)
  end)

  it("empty or unset: the native module when it loads, else the pure-Lua backend", function()
    local ok, out = lua_with("ASTAR_BACKEND=", 'io.write(require("astar").backend)', "/nonexistent/?.so")
    assert(ok, out)
    assert.equal("lua", out)
  end)
end)
