-- Objects reached through the debug library (the internal search object, a
-- field's environment) may be misused: that must raise or do nothing, never
-- crash the process, as Lua's own io library survives a closed file.  Each
-- case runs in a child process, so a crash fails the case, not the suite.
local H = require("hostile.common")
local isolated = H.isolated

describe("objects reached through the debug library stay safe", function()
  -- A graph keeps its search object in its user value; that object's __gc,
  -- called by hand, must not break the next find_path.
  it("calling the cached search's __gc, then find_path", function()
    local ok, out = isolated([[
      local astar = require("astar")
      local g = astar.graph(); g:add_node(0, 0); g:add_node(1, 0); g:add_edge(1, 2, 1)
      g:find_path(1, 2)
      local uv = (debug.getuservalue or debug.getfenv)(g)
      if type(uv) ~= "table" then uv = debug.getfenv(g) end
      getmetatable(uv.search).__gc(uv.search)
      assert(pcall(g.find_path, g, 1, 2) ~= nil)
    ]])
    assert.is_true(ok, out)
  end)
  -- The cached search taken out of the user value is collected before its
  -- topology: the topology must not read it when it goes (a use after free
  -- that the sanitizer tier, make check, reports in the child process).
  it("a cached search collected before its topology", function()
    local ok, out = isolated([[
      local astar = require("astar")
      local getuv = debug.getuservalue or debug.getfenv
      local function strip(t)
        local uv = getuv(t)
        if type(uv) == "table" then uv.search, uv.search2 = nil, nil end
      end
      local g = astar.grid(8, 8)
      assert(g:find_path(1, 1, 8, 8))
      assert(g:flee(1, 1, { { 8, 8 } }, { max_cost = 4 }))
      local h = astar.graph(); h:add_node(0, 0); h:add_node(1, 0); h:add_edge(1, 2, 1)
      assert(h:find_path(1, 2))
      strip(g); strip(h)
      collectgarbage(); collectgarbage(); collectgarbage()
      -- new searches may now sit where the old ones were
      local keep = {}
      for i = 1, 50 do keep[i] = astar.grid(3, 3); keep[i]:find_path(1, 1, 3, 3) end
      assert(g:find_path(1, 1, 8, 8) and h:find_path(1, 2))
      strip(g); strip(h)
      collectgarbage(); collectgarbage(); collectgarbage()
      g, h = nil, nil
      collectgarbage(); collectgarbage()
      for i = 1, 50 do assert(keep[i]:find_path(1, 1, 3, 3)) end
    ]])
    assert.is_true(ok, out)
  end)
  -- On 5.1 and LuaJIT a field's environment is reached with debug.getfenv.
  it("debug.getfenv of a field (5.1 and LuaJIT)", function()
    local ok, out = isolated([[
      local astar = require("astar")
      local f = astar.field(astar.grid(2, 2))
      if debug.getfenv then
        local e = debug.getfenv(f)
        if type(e) == "table" then local _ = e.x end
      end
    ]])
    assert.is_true(ok, out)
  end)
end)
