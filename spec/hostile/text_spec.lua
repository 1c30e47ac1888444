-- Maps as text: astar.grid_from_string's map and legend, and the maps
-- loader (astar.maps.load, astar.maps.scenarios) with bad paths and options.
local astar = require("astar")
local error_of = require("helpers").error_of
local H = require("hostile.common")
local unpack, NONE, NAN, HUGE, U_GRID, U_FIELD = H.unpack, H.NONE, H.NAN, H.HUGE, H.U_GRID, H.U_FIELD
local VALUES, absent, outcome, grid_ok, module_ok = H.VALUES, H.absent, H.outcome, H.grid_ok, H.module_ok
local tmpfile = H.tmpfile

local D = astar.DIAGONAL

describe("hostile grid_from_string", function()
  local LEG = "must be true, false, a cost, a tag name or { blocked =, cost =, tag = }, got "
  local KEYS = "legend keys must be single characters or \"default\", got "
  -- { arguments, argument number, message }
  local cases = {
    { { "..\n.x" }, 1, "unknown character 'x' at row 2, column 2 (add it to the legend)" },
    { { "\0" }, 1, "unknown character \\0 at row 1, column 1 (add it to the legend)" },
    { { "\n\n" }, 1, "no rows in the map" },
    { { "..", { x = 5 }, "never" }, 3, "table expected, got string" },
    { { "..", { x = -1 } }, 2, 'legend["x"] ' .. LEG .. "-1" },
    { { "..", { x = NAN } }, 2, 'legend["x"] ' .. LEG .. "nan" },
    { { "..", { x = HUGE } }, 2, 'legend["x"] ' .. LEG .. "inf" },
    { { "..", { x = print } }, 2, 'legend["x"] ' .. LEG .. "function" },
    { { "..", { x = U_GRID } }, 2, 'legend["x"] ' .. LEG .. "astar.Grid" },
    { { "..", { x = { cost = "2" } } }, 2, 'legend["x"].cost must be a finite number >= 0, got "2"' },
    { { "..", { x = { blocked = 1 } } }, 2, 'legend["x"].blocked must be a boolean, got 1' },
    { { "..", { x = { tag = 7 } } }, 2, 'legend["x"].tag must be a string (tag name), got 7' },
    { { "..", { default = -2 } }, 2, 'legend["default"] ' .. LEG .. "-2" },
    { { "..", { [1] = true } }, 2, KEYS .. "1" },
    { { "..", { [true] = true } }, 2, KEYS .. "true" },
    { { "..", { [""] = true } }, 2, KEYS .. '""' },
    { { "..", { ab = true } }, 2, KEYS .. '"ab"' },
    { { "..", { [U_FIELD] = true } }, 2, KEYS .. "astar.Field" },
    { { "..", nil, { diagonal = 1 } }, 3,
      'diagonal must be "never", "no_corner_cutting", "one_obstacle" or "always", got 1' },
    { { "..", nil, { [1] = "never" } }, 3, "unknown option 1" },
  }
  for _, c in ipairs(cases) do
    local want = ("bad argument #%d to 'grid_from_string' (%s)"):format(c[2], c[3])
    it(want, function()
      assert.equal(want, error_of(astar.grid_from_string, unpack(c[1], 1, 3)))
      module_ok()
    end)
  end

  it("accepts every legend form and a default", function()
    local g = astar.grid_from_string("abcde\nfghij", { a = true, b = false, c = 2.5, d = "mud",
      e = { blocked = false, cost = 0, tag = "ice" }, default = { cost = 3 } })
    assert.same({ 5, 2 }, { g:size() })
    assert.is_true(g:is_blocked(2, 1))
    assert.equal(2.5, g:get_cost(3, 1))
    assert.equal("mud", g:get_tag(4, 1))
    assert.equal(0, g:get_cost(5, 1))
    assert.equal("ice", g:get_tag(5, 1))
    assert.equal(3, g:get_cost(1, 2))
    grid_ok(g)
  end)
end)

describe("grid_from_string takes a carriage return only before a line end", function()
  -- '\r' is part of a CRLF line end and nothing else: inside a row it is an
  -- unlisted character like any other, and must not shift the cells after it.
  it("an unlisted \\r inside a row is an unknown character", function()
    assert.equal("bad argument #1 to 'grid_from_string' (unknown character \\13 at row 1, column 3 (add it to the legend))",
      outcome(astar.grid_from_string, "..\r.."))
    module_ok()
  end)
  it("CRLF line ends are still fine", function()
    local g = astar.grid_from_string("..#\r\n...\r\n")
    assert.same({ 3, 2 }, { g:size() })
    assert.is_true(g:is_blocked(3, 1))
  end)
end)

describe("hostile maps", function()
  local map, scen
  setup(function()
    map = tmpfile("type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n")
    scen = tmpfile("version 1\n0\tm.map\t3\t2\t0\t0\t2\t1\t2.82842712\n")
  end)
  teardown(function()
    os.remove(map)
    os.remove(scen)
  end)

  local function lua_type_name(e)
    if e.v == NONE then return "nil" end -- a Lua function cannot tell none from nil
    return type(e.v)
  end

  for _, e in ipairs(VALUES) do
    if type(e.v) ~= "string" then
      it("load with " .. e.label .. " as the path", function()
        local n = e.v == NONE and 0 or 1
        assert.equal("bad argument #1 to 'load' (string expected, got " .. lua_type_name(e) .. ")",
          error_of(astar.maps.load, unpack({ e.v }, 1, n)))
        assert.equal("bad argument #1 to 'scenarios' (string expected, got " .. lua_type_name(e) .. ")",
          error_of(astar.maps.scenarios, unpack({ e.v }, 1, n)))
      end)
      if not absent(e) and type(e.v) ~= "table" then
        it("load with " .. e.label .. " as the options", function()
          assert.equal("bad argument #2 to 'load' (table expected, got " .. type(e.v) .. ")",
            error_of(astar.maps.load, map, e.v))
          assert(astar.maps.load(map):find_path(1, 1, 3, 2))
        end)
      end
    else
      it("load and scenarios with " .. e.label .. " as the path", function()
        assert.equal(("cannot open map '%s': %s: No such file or directory"):format(e.v, e.v),
          error_of(astar.maps.load, e.v))
        assert.equal(("cannot open scenario file '%s': %s: No such file or directory"):format(e.v, e.v),
          error_of(astar.maps.scenarios, e.v))
      end)
    end
  end

  it("load: bad diagonal values and unknown options", function()
    local C = 'diagonal must be "never", "no_corner_cutting", "one_obstacle" or "always", got '
    assert.equal("bad argument #2 to 'load' (" .. C .. '"sometimes")',
      error_of(astar.maps.load, map, { diagonal = "sometimes" }))
    assert.equal("bad argument #2 to 'load' (" .. C .. "true)",
      error_of(astar.maps.load, map, { diagonal = true }))
    assert.equal("bad argument #2 to 'load' (" .. C .. "2)",
      error_of(astar.maps.load, map, { diagonal = 2 }))
    assert.equal("bad argument #2 to 'load' (unknown option \"diag\")",
      error_of(astar.maps.load, map, { diag = "never" }))
    local g = astar.maps.load(map, { diagonal = "always" })
    assert.equal(D + 1, g:find_path(1, 1, 3, 2).cost)
  end)

  it("scenarios: reads the row, ignores extra arguments", function()
    local s = astar.maps.scenarios(scen, "extra", {})
    assert.equal(1, #s)
    assert.same({ 1, 1 }, s[1].start)
    assert.same({ 3, 2 }, s[1].goal)
  end)

  -- maps.load words its option errors like the C functions (astar.grid,
  -- grid_from_string, find_path): keys and values by type, never by
  -- address, NaN as nan.
  it("load words a numeric option key like astar.grid does", function()
    assert.equal("bad argument #3 to 'grid' (unknown option 1)", error_of(astar.grid, 3, 3, { "never" }))
    assert.equal("bad argument #2 to 'load' (unknown option 1)", error_of(astar.maps.load, map, { "never" }))
  end)
  it("load names a table key by type, not by address", function()
    assert.equal("bad argument #2 to 'load' (unknown option table)", error_of(astar.maps.load, map, { [{}] = 1 }))
  end)
  it("load names a table or function diagonal by type, not by address", function()
    local C = 'diagonal must be "never", "no_corner_cutting", "one_obstacle" or "always", got '
    assert.equal("bad argument #3 to 'grid' (" .. C .. "table)", error_of(astar.grid, 3, 3, { diagonal = {} }))
    assert.equal("bad argument #2 to 'load' (" .. C .. "table)", error_of(astar.maps.load, map, { diagonal = {} }))
    assert.equal("bad argument #2 to 'load' (" .. C .. "function)", error_of(astar.maps.load, map, { diagonal = print }))
  end)
  it("load prints a NaN diagonal as nan", function()
    local C = 'diagonal must be "never", "no_corner_cutting", "one_obstacle" or "always", got '
    assert.equal("bad argument #3 to 'grid' (" .. C .. "nan)", error_of(astar.grid, 3, 3, { diagonal = NAN }))
    assert.equal("bad argument #2 to 'load' (" .. C .. "nan)", error_of(astar.maps.load, map, { diagonal = NAN }))
  end)
end)
