-- core._set_blocked_all(grid, cells) (how astar.grid_from_table and
-- astar.hex_from_table write their blocked cells at once) and
-- core._components_current(grid): every wrong argument is a clear error
-- naming the function, the argument and the value, and the grid stays as it
-- was and usable.
local astar = require("astar")
local core = require("astar.core")
local error_of = require("helpers").error_of
local H = require("hostile.common")
local VALUES, NONE, grid_ok, grid_snapshot, new_grid = H.VALUES, H.NONE, H.grid_ok, H.grid_snapshot, H.new_grid
local unpack = H.unpack

local set_all, current = core._set_blocked_all, core._components_current

-- fn(...) with NONE meaning no argument there and after
local function call(fn, ...)
  local args, n = { ... }, select("#", ...)
  for i = 1, n do
    if args[i] == NONE then
      n = i - 1
      break
    end
  end
  return error_of(fn, unpack(args, 1, n))
end

describe("hostile _set_blocked_all and _components_current", function()
  it("refuse anything but a grid of cells as the first argument", function()
    for _, e in ipairs(VALUES) do
      if e.d ~= "astar.Grid" then
        local want = e.d == "astar.Graph" and "grid of cells expected, got astar.Graph"
          or ("astar.Graph, astar.Grid or astar.Hex expected, got %s"):format(e.t == "userdata" and e.d or e.t)
        assert.equal("bad argument #1 to '_set_blocked_all' (" .. want .. ")", call(set_all, e.v, ""))
        if e.d ~= "astar.Graph" then
          assert.equal("bad argument #1 to '_components_current' (" .. want .. ")", call(current, e.v))
        end
      end
    end
    assert.equal("boolean", type(current(astar.graph()))) -- any topology: a graph too
  end)

  it("refuse anything but a list of cell ids, the grid unchanged", function()
    local g = new_grid()
    local w, h = g:size()
    g:set_blocked(2, 2, true)
    local before = grid_snapshot(g)
    for _, e in ipairs(VALUES) do
      if e.t ~= "table" then
        local want = ("table (a list of cell ids) expected, got %s"):format(
          e.t == "userdata" and e.d or e.t)
        assert.equal("bad argument #2 to '_set_blocked_all' (" .. want .. ")", call(set_all, g, e.v))
      end
      if not (e.v == nil or e.v == NONE) and not (e.t == "number" and e.v >= 1 and e.v <= w * h and e.v == math.floor(e.v)) then
        assert.equal(("bad argument #2 to '_set_blocked_all' (cells[2] must be a cell id in 1..%d, got %s)")
          :format(w * h, e.d), call(set_all, g, { 1, e.v, 3 }))
      end
    end
    for _, v in ipairs({ 0, w * h + 1, -1, 1.5 }) do
      assert.equal(("bad argument #2 to '_set_blocked_all' (cells[1] must be a cell id in 1..%d, got %s)")
        :format(w * h, tostring(v)), call(set_all, g, { v }))
    end
    assert.same(before, grid_snapshot(g))
    grid_ok(g)
    -- a metatable is not consulted: the list is read raw
    assert.equal(g, set_all(g, setmetatable({}, { __index = function() return 1 end, __len = function() return 5 end })))
    assert.is_nil(g:to_string():find("#", 1, true))
    grid_ok(g)
  end)

  it("block the cells listed and open every other; refuse a closed grid or one being searched", function()
    local g = astar.grid(4, 1)
    g:set_blocked(1, 1, true)
    assert.equal(g, set_all(g, { 2, 3, 3 }))
    assert.equal(".##.\n", g:to_string())
    assert.is_true(current(g))
    local h = astar.hex(2, 2)
    set_all(h, { 2 })
    assert.is_true(h:is_blocked(2, 1) and current(h))
    local r = g:query(1, 1, 4, 1, { cost = function(_, _, c)
      assert.equal("cannot call '_set_blocked_all': grid is being searched", error_of(set_all, g, {}))
      return c
    end })
    r:step()
    assert.equal(".##.\n", g:to_string())
    g:close()
    assert.equal("attempt to use a closed grid", error_of(set_all, g, {}))
    assert.equal("attempt to use a closed grid", error_of(current, g))
  end)
end)
