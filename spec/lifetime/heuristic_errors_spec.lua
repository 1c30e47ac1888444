-- A Lua heuristic that raises (issue 19, item 5): the bridge calls it with
-- lua_call inside the call's one protected frame, so its error must reach
-- the caller with its value -- also when finalizers, which search the same
-- grid, run between its calls -- and leave nothing held or leaked (make
-- memcheck runs this file under valgrind).
local astar = require("astar")
local helpers = require("helpers")
local H = require("lifetime.common")
local rng, random_grid = helpers.rng, helpers.random_grid

local DIAG_EXTRA = astar.DIAGONAL - 1

describe("a Lua heuristic's error", function()
  it("reaches the caller with its value while finalizers run in between; the grid stays usable", function()
    local g = random_grid(rng(3), 40, 40, 0.2)
    g:set_blocked(1, 1, false)
    g:set_blocked(40, 37, false)
    local want = assert(g:find_path(1, 1, 40, 37))
    local total = 0
    g:find_path(1, 1, 40, 37, { heuristic = function() total = total + 1; return 0 end })
    assert(total >= 17, "too few calls to raise at the 17th")
    local obj = setmetatable({}, { __tostring = function() return "the error object" end })
    local finalized = 0
    local make = H.finalizing(function()
      finalized = finalized + 1
      local p = g:find_path(2, 2, 3, 3)
      assert(p and p.cost > 0)
    end)
    for _, at in ipairs({ 1, 2, 5, 17 }) do
      local calls = 0
      local ok, err = pcall(g.find_path, g, 1, 1, 40, 37, { heuristic = function(x, y, gx, gy)
        calls = calls + 1
        -- garbage whose finalizers search the same grid and allocate
        for _ = 1, 3 do make() end
        collectgarbage()
        if calls == at then error(obj) end
        local dx, dy = math.abs(x - gx), math.abs(y - gy)
        return DIAG_EXTRA * math.min(dx, dy) + math.max(dx, dy)
      end })
      assert.is_false(ok)
      assert.equal(obj, err)
    end
    assert(finalized > 0, "no finalizer ran")
    local p = assert(g:find_path(1, 1, 40, 37))
    assert.equal(want.cost, p.cost)
    assert.same(want.nodes, p.nodes)
  end)

  it("reaches query:step's caller the same way, and the query is failed, the grid usable", function()
    local g = random_grid(rng(4), 30, 30, 0.2)
    g:set_blocked(1, 1, false)
    g:set_blocked(30, 30, false)
    local obj = {}
    local make = H.finalizing(function() g:find_path(1, 1, 2, 2) end)
    local calls = 0
    local q = g:query(1, 1, 30, 30, { heuristic = function()
      calls = calls + 1
      make()
      collectgarbage()
      if calls == 4 then error(obj) end
      return 0
    end })
    local ok, err
    repeat ok, err = pcall(q.step, q, 1) until not ok or err ~= "searching"
    assert.is_false(ok)
    assert.equal(obj, err)
    assert(g:find_path(1, 1, 30, 30))
  end)
end)
