-- astar.hex's own hostile cases: every option of the constructor with bad
-- values, sizes at and past the limits, and lifetimes (a hex grid closed or
-- collected while a query or a field still needs it).  Argument rows for
-- every method are in arguments_spec.lua, wrong selves in self_spec.lua,
-- closed hex grids in closed_spec.lua.
local astar = require("astar")
local error_of = require("helpers").error_of
local H = require("hostile.common")

describe("hostile astar.hex", function()
  local LAYOUT = 'layout must be "odd_r", "even_r", "odd_q" or "even_q", got '
  local cases = {
    { { layout = "odd" }, LAYOUT .. '"odd"' },
    { { layout = "ODD_R" }, LAYOUT .. '"ODD_R"' },
    { { layout = 1 }, LAYOUT .. "1" },
    { { layout = {} }, LAYOUT .. "table" },
    { { layout = H.NAN }, LAYOUT .. "nan" },
    { { cell_size = 0 }, "cell_size must be a finite number > 0, got 0" },
    { { cell_size = -2 }, "cell_size must be a finite number > 0, got -2" },
    { { cell_size = H.NAN }, "cell_size must be a finite number > 0, got nan" },
    { { cell_size = math.huge }, "cell_size must be a finite number > 0, got inf" },
    { { cell_size = "1" }, 'cell_size must be a finite number > 0, got "1"' },
    { { origin = 3 }, "origin must be a table {x, y} of two finite numbers, got 3" },
    { { origin = { 1 } }, "origin[2] must be a finite number, got nil" },
    { { origin = { H.NAN, 0 } }, "origin[1] must be a finite number, got nan" },
    { { origin = { 1, H.NAN } }, "origin[2] must be a finite number, got nan" },
    { { origin = { "1", 2 } }, 'origin[1] must be a finite number, got "1"' },
    { { origin = { 1, -math.huge } }, "origin[2] must be a finite number, got -inf" },
    { { origin = { 1, 2, 3 } }, "origin must be a table {x, y} of two finite numbers, got a table with key 3" },
    { { origin = { 1, 2, y = 2 } }, 'origin must be a table {x, y} of two finite numbers, got a table with key "y"' },
    { { diagonal = "never" }, 'unknown option "diagonal"' },
    { { "odd_r" }, "unknown option 1" },
  }
  for _, c in ipairs(cases) do
    it("refuses " .. c[2], function()
      assert.equal("bad argument #3 to 'hex' (" .. c[2] .. ")", error_of(astar.hex, 4, 4, c[1]))
    end)
  end

  it("refuses sizes out of range, and accepts the limits", function()
    assert.equal("bad argument #1 to 'hex' (width must be an integer in 1..65535, got 0)",
      error_of(astar.hex, 0, 4))
    assert.equal("bad argument #2 to 'hex' (height must be an integer in 1..65535, got 65536)",
      error_of(astar.hex, 4, 65536))
    assert.equal("bad argument #1 to 'hex' (width must be an integer in 1..65535, got 1.5)",
      error_of(astar.hex, 1.5, 4))
    assert.equal("bad argument #2 to 'hex' (hex grid too large (width * height must be below 2^30))",
      error_of(astar.hex, 65535, 65535))
    local long = astar.hex(65535, 1, { layout = "odd_q" })
    assert.equal(65534, long:find_path(1, 1, 65535, 1).cost)
    assert.equal("astar.Hex (1x1, layout even_r)", tostring(astar.hex(1, 1, { layout = "even_r" })))
  end)

  it("names cells out of range and bad paths exactly", function()
    local hx = astar.hex(3, 2)
    assert.equal("bad argument #1 to 'find_path' (x must be an integer in 1..3, got 4)",
      error_of(hx.find_path, hx, 4, 1, 1, 1))
    assert.equal("bad argument #1 to 'distances' (sources[2] must be a cell {x, y} inside the "
      .. "3x2 hex grid, got table)", error_of(hx.distances, hx, { { 1, 1 }, { 0, 1 } }))
    assert.equal("bad argument #1 to 'to_string' (path entry 1 is not a cell id of this hex grid, "
      .. "got 7)", error_of(hx.to_string, hx, { 7 }))
    assert.equal("bad argument #1 to 'xy' (cell 7 does not exist (the hex grid has 6 cells))",
      error_of(hx.xy, hx, 7))
  end)

  it("takes units of size 1..255, and refuses other sizes naming the value", function()
    local hx = astar.hex(5, 5)
    assert.equal(hx:distance(1, 1, 5, 5), hx:find_path(1, 1, 5, 5, { size = 1 }).cost)
    assert.equal(hx:distance(2, 2, 4, 4), hx:find_path(2, 2, 4, 4, { size = 2 }).cost)
    for _, bad in ipairs({ 0, 256, 1.5, -1 }) do
      assert.equal(("bad argument #5 to 'find_path' (size must be an integer in 1..255, got %s)")
        :format(tostring(bad)), error_of(hx.find_path, hx, 1, 1, 5, 5, { size = bad }))
    end
    assert.equal("bad argument #2 to 'distances' (size must be an integer in 1..255, got 0)",
      error_of(hx.distances, hx, { { 1, 1 } }, { size = 0 }))
  end)

  it("a cost callback error reaches the caller; the hex grid stays usable", function()
    local hx = astar.hex(6, 6)
    local ok, err = pcall(hx.find_path, hx, 1, 1, 6, 6, { cost = function() error({ code = 7 }) end })
    assert.is_false(ok)
    assert.same({ code = 7 }, err)
    assert.equal(hx:distance(1, 1, 6, 6), hx:find_path(1, 1, 6, 6).cost)
    assert.equal("cost callback returned -1 for the step from (1, 1) to (2, 1) (expected a "
      .. "finite number >= 0 or false)", error_of(hx.find_path, hx, 1, 1, 6, 6, {
        cost = function() return -1 end }))
  end)

  it("a query outlives a closed or collected hex grid safely", function()
    local hx = astar.hex(40, 40)
    local q = hx:query(1, 1, 40, 40)
    q:step(5)
    hx:close()
    assert.equal("cancelled", q:status())
    local f = astar.hex(8, 8):distances({ { 1, 1 } })
    collectgarbage()
    collectgarbage()
    assert.equal(11, f:get(8, 8)) -- axial (0, 0) to (4, 7)
    assert.is_nil((f:next_step(1, 1)))
  end)
end)
