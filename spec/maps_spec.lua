-- astar.maps: the Moving AI map and scenario parsers on small files written
-- here (every format trap of ../shared/maps/README.md, exact errors), then
-- the benchmark's own files in ../shared/maps through them (read in place,
-- never copied; skipped, as pending, when that directory is absent).  The
-- path costs against the rows' optimal lengths are spec/jps_spec.lua's: a
-- sample in make test, every row in make test-system.
local astar = require("astar")
local maps = astar.maps
local error_of = require("helpers").error_of

-- Temporary files: one os.tmpname() base, suffixed; all removed at the end.
local base, created = nil, {}
local function tmpfile(suffix, text)
  local path = base .. "-" .. suffix
  local f = assert(io.open(path, "wb"))
  f:write(text)
  f:close()
  created[#created + 1] = path
  return path
end

local function cleanup()
  for _, path in ipairs(created) do os.remove(path) end
  os.remove(base)
  base, created = nil, {}
end

local function crlf(text) return (text:gsub("\n", "\r\n")) end

-- Every terrain character: '.', 'G', 'S' passable; '@', 'O', 'T', 'W' blocked.
local TERRAIN = "type octile\nheight 2\nwidth 4\nmap\n.GS.\n@OTW\n"
local TERRAIN_BLOCKED = { { false, false, false, false }, { true, true, true, true } }

local function blocked_cells(grid)
  local w, h = grid:size()
  local rows = {}
  for y = 1, h do
    rows[y] = {}
    for x = 1, w do rows[y][x] = grid:is_blocked(x, y) end
  end
  return rows
end

describe("astar.maps.load", function()
  lazy_setup(function() base = os.tmpname() end)
  lazy_teardown(cleanup)

  it("reads an LF map: size, every terrain character, the default diagonal rule #pure", function()
    local grid = maps.load(tmpfile("lf.map", TERRAIN))
    assert.same({ 4, 2 }, { grid:size() })
    assert.same(TERRAIN_BLOCKED, blocked_cells(grid))
    assert.equal("no_corner_cutting", grid:diagonal())
    assert.equal("astar.Grid (4x2, diagonal no_corner_cutting)", tostring(grid))
    -- G and S are walked on, W is not
    assert.equal(3, grid:find_path(1, 1, 4, 1).cost)
  end)

  it("reads the same map with CRLF line endings #pure", function()
    local grid = maps.load(tmpfile("crlf.map", crlf(TERRAIN)))
    assert.same({ 4, 2 }, { grid:size() })
    assert.same(TERRAIN_BLOCKED, blocked_cells(grid))
  end)

  it("takes the header lines in either order #pure", function()
    local grid = maps.load(tmpfile("wh.map", "type octile\nwidth 4\nheight 2\nmap\n.GS.\n@OTW\n"))
    assert.same({ 4, 2 }, { grid:size() })
    assert.same(TERRAIN_BLOCKED, blocked_cells(grid))
    grid = maps.load(tmpfile("hw-crlf.map", crlf("height 3\ntype octile\nwidth 1\nmap\n.\n@\nT\n")))
    assert.same({ 1, 3 }, { grid:size() })
    assert.same({ { false }, { true }, { true } }, blocked_cells(grid))
  end)

  it("accepts a map without a final newline #pure", function()
    local grid = maps.load(tmpfile("nofinal.map", "type octile\nheight 2\nwidth 2\nmap\n..\n.@"))
    assert.same({ { false, false }, { false, true } }, blocked_cells(grid))
  end)

  it("does not cut corners by default, as the benchmark requires #pure", function()
    local path = tmpfile("corner.map", "type octile\nheight 2\nwidth 2\nmap\n.@\n..\n")
    assert.equal(2, maps.load(path):find_path(1, 1, 2, 2).cost)
    local open = tmpfile("open.map", "type octile\nheight 2\nwidth 2\nmap\n..\n..\n")
    assert.equal(astar.DIAGONAL, maps.load(open):find_path(1, 1, 2, 2).cost)
  end)

  it("passes opts.diagonal to the grid #pure", function()
    local path = tmpfile("corner2.map", "type octile\nheight 2\nwidth 2\nmap\n.@\n..\n")
    local always = maps.load(path, { diagonal = "always" })
    assert.equal("always", always:diagonal())
    assert.equal(astar.DIAGONAL, always:find_path(1, 1, 2, 2).cost)
    local never = maps.load(path, { diagonal = "never" })
    assert.equal("never", never:diagonal())
    assert.equal(2, never:find_path(1, 1, 2, 2).cost)
  end)

  it("requires the 'map' line #pure", function()
    local path = tmpfile("nomap.map", "type octile\nheight 2\nwidth 4\n.GS.\n@OTW\n")
    assert.equal("'" .. path .. "' is not a Moving AI map (expected 'height', 'width' and 'map' lines)",
      error_of(maps.load, path))
  end)

  it("requires the width and height lines #pure", function()
    local path = tmpfile("nowidth.map", "type octile\nheight 2\nmap\n.GS.\n@OTW\n")
    assert.equal("'" .. path .. "' is not a Moving AI map (expected 'height', 'width' and 'map' lines)",
      error_of(maps.load, path))
  end)

  it("rejects a header that disagrees with the rows #pure", function()
    local path = tmpfile("tall.map", "type octile\nheight 3\nwidth 4\nmap\n.GS.\n@OTW\n")
    assert.equal("'" .. path .. "' says 4x3 but its rows make 4x2", error_of(maps.load, path))
    path = tmpfile("wide.map", crlf("type octile\nheight 2\nwidth 5\nmap\n.GS.\n@OTW\n"))
    assert.equal("'" .. path .. "' says 5x2 but its rows make 4x2", error_of(maps.load, path))
  end)

  it("rejects rows of different widths #pure", function()
    local path = tmpfile("ragged.map", "type octile\nheight 2\nwidth 4\nmap\n.GS.\n@OT\n")
    assert.equal("'" .. path .. "': row 2 has 3 cells, row 1 has 4", error_of(maps.load, path))
  end)

  it("checks its options like the core does #pure", function()
    local path = tmpfile("opts.map", "type octile\nheight 1\nwidth 2\nmap\n..\n")
    assert.equal("bad argument #2 to 'load' (diagonal must be \"never\", \"no_corner_cutting\", "
      .. "\"one_obstacle\" or \"always\", got \"sometimes\")", error_of(maps.load, path, { diagonal = "sometimes" }))
    assert.equal("bad argument #2 to 'load' (unknown option \"diagnoal\")",
      error_of(maps.load, path, { diagnoal = "never" }))
    assert.equal("bad argument #1 to 'load' (string expected, got nil)", error_of(maps.load))
    assert.equal("never", maps.load(path, { diagonal = "never" }):diagonal())
  end)

  it("raises for a missing file #pure", function()
    local path = base .. "-missing.map"
    assert.equal("cannot open map '" .. path .. "': " .. path .. ": No such file or directory",
      error_of(maps.load, path))
  end)

  -- io.open succeeds on a directory and f:read("a") then returns nil: the
  -- error is still "cannot open map", not an internal one
  it("raises 'cannot open map' for a path that is a directory #pure", function()
    local dir = base:match("^(.*)/[^/]*$")
    local prefix = "cannot open map '" .. dir .. "': "
    assert.matches("^" .. prefix:gsub("%p", "%%%0"), error_of(maps.load, dir))
  end)
end)

describe("maps header values", function()
  setup(function() base = os.tmpname() end)
  teardown(cleanup)

  local function map_text(height, width, rows)
    return ("type octile\nheight %s\nwidth %s\nmap\n%s"):format(height, width, rows or "...\n")
  end
  local SIDE = "must be an integer in 1..65535, got "

  -- header text -> the value the message shows: the number as Lua reads it
  -- (decimal text only), else the text quoted
  local cases = {
    { "4.9", "height", "4.9" }, { "0", "height", "0" }, { "-1", "height", "-1" },
    { "65536", "height", "65536" }, { "99999999", "height", "99999999" },
    { "1e308", "height", "1e+308" }, { "1e400", "height", "inf" }, { "1e-400", "height", "0" },
    { "nan", "height", '"nan"' }, { "inf", "height", '"inf"' }, { "-inf", "height", '"-inf"' },
    { "0x10", "height", '"0x10"' }, { "ten", "height", '"ten"' }, { "1..2", "height", '"1..2"' },
    { ("9"):rep(50), "height", "1e+50" }, { ("x"):rep(50), "height", '"' .. ("x"):rep(37) .. '..."' },
  }
  for _, c in ipairs(cases) do
    it("refuses height  #pure" .. c[1]:sub(1, 12) .. " (and the same as width)", function()
      assert.equal("map text: height " .. SIDE .. c[3], error_of(maps.parse, map_text(c[1], 3, "")))
      assert.equal("map text: width " .. SIDE .. c[3], error_of(maps.parse, map_text(1, c[1])))
    end)
  end

  it("refuses a non-integer header in maps.parse and maps.load alike #pure", function()
    assert.equal("map text: width " .. SIDE .. "3.5", error_of(maps.parse, map_text(1, "3.5")))
    local path = tmpfile("half.map", map_text(4.9, 9))
    assert.equal("'" .. path .. "': height " .. SIDE .. "4.9", error_of(maps.load, path))
    path = tmpfile("zero.map", crlf(map_text(1, 0)))
    assert.equal("'" .. path .. "': width " .. SIDE .. "0", error_of(maps.load, path))
  end)

  it("gives the fuzzer's input a clean error (fuzz/corpus/parse/map-height-not-integer) #pure", function()
    -- this text made string.format fail inside maps.lua, an internal error
    -- that aborted fuzz/fuzz_parse.c
    assert.equal("map text: height " .. SIDE .. "4.9", error_of(maps.parse, "\nheight 4.9\nwidth 9\nmap\nTti\3"))
    local f = assert(io.open("fuzz/corpus/parse/map-height-not-integer", "rb"))
    local data = f:read("*a")
    f:close()
    assert.equal(2, data:byte(1) % 4)      -- the harness's mode byte: maps.parse
    assert.equal("map text: height " .. SIDE .. "4.9", error_of(maps.parse, data:sub(2)))
  end)

  it("checks height before width, as the files list them #pure", function()
    assert.equal("map text: height " .. SIDE .. "0", error_of(maps.parse, map_text(0, 0)))
  end)

  it("takes integral decimal text: 3.0 and 3e0 are 3 #pure", function()
    assert.same({ 3, 1 }, { maps.parse(map_text("1.0", "3e0")):size() })
    assert.same({ 3, 1 }, { maps.parse(map_text("+1", "003")):size() })
  end)

  it("still compares a valid header with the rows #pure", function()
    assert.equal("map text says 3x65535 but its rows make 3x1", error_of(maps.parse, map_text(65535, 3)))
  end)

  it("blames the caller's line for parse, load and scenario errors #pure", function()
    local path = tmpfile("blame.map", map_text(2, 3))
    for _, call in ipairs({
      function() maps.parse(map_text("x", 3)) end,
      function() maps.parse(map_text(2, 3)) end,
      function() maps.parse("no map here") end,
      function() maps.load(path) end,
      function() maps.parse_scenarios("version 1\nnot a row\n") end,
    }) do
      local ok, err = pcall(call)
      assert.is_false(ok)
      assert.truthy(err:match("^[^\n]*maps_spec%.lua:%d+: "), err)
    end
  end)
end)

describe("maps options with metatables", function()
  local TEXT = "type octile\nheight 2\nwidth 2\nmap\n.@\n..\n"
  local C = 'diagonal must be "never", "no_corner_cutting", "one_obstacle" or "always", got '

  it("reads diagonal through __index, like the C functions, and checks it #pure", function()
    local opts = setmetatable({}, { __index = { diagonal = "always" } })
    assert.equal("always", maps.parse(TEXT, opts):diagonal())
    opts = setmetatable({}, { __index = { diagonal = "bogus" } })
    assert.equal("bad argument #2 to 'parse' (" .. C .. '"bogus")', error_of(maps.parse, TEXT, opts))
    opts = setmetatable({}, { __index = function() return 5 end })
    assert.equal("bad argument #2 to 'parse' (" .. C .. "5)", error_of(maps.parse, TEXT, opts))
  end)

  it("reads diagonal once: a __index that changes its answer cannot slip past the check #pure", function()
    local calls = 0
    local opts = setmetatable({}, { __index = function(_, k)
      if k ~= "diagonal" then return nil end  -- cell_size, origin: read once each too
      calls = calls + 1
      return calls == 1 and "never" or "bogus"
    end })
    assert.equal("never", maps.parse(TEXT, opts):diagonal())
    assert.equal(1, calls)
  end)

  it("lists the keys raw: __pairs is not called #pure", function()
    local opts = setmetatable({}, { __pairs = function() error("__pairs called") end })
    assert.equal("no_corner_cutting", maps.parse(TEXT, opts):diagonal())
  end)
end)

-- One scenario row, tab-separated as in the files.
local function row(...) return table.concat({ ... }, "\t") end

describe("astar.maps.scenarios", function()
  lazy_setup(function() base = os.tmpname() end)
  lazy_teardown(cleanup)

  local BODY = row(0, "tiny.map", 4, 3, 0, 0, 3, 2, "3.41421356") .. "\n"
            .. row(1, "tiny.map", 4, 3, 2, 1, 2, 1, "0.00000000") .. "\n"

  local function expected(map)
    return {
      { bucket = 0, map = map, width = 4, height = 3, start = { 1, 1 }, goal = { 4, 3 },
        optimal = 3.41421356, tolerance = 0.5e-8 + 2e-8 * 3.41421356 },
      { bucket = 1, map = map, width = 4, height = 3, start = { 3, 2 }, goal = { 3, 2 },
        optimal = 0, tolerance = 0.5e-8 },
    }
  end

  -- luassert's same() compares numbers exactly; compare tolerances within
  -- 1e-12 of their own size, the rest exactly.
  local function assert_scenarios(want, got)
    assert.equal(#want, #got)
    for i = 1, #want do
      assert.near(want[i].tolerance, got[i].tolerance, want[i].tolerance * 1e-12)
      local w, g = {}, {}
      for k, v in pairs(want[i]) do w[k] = v end
      for k, v in pairs(got[i]) do g[k] = v end
      w.tolerance, g.tolerance = nil, nil
      assert.same(w, g)
    end
  end

  it("reads a 'version 1' file with bare map names, coordinates made 1-based #pure", function()
    local list = maps.scenarios(tmpfile("v1.scen", "version 1\n" .. BODY))
    assert_scenarios(expected("tiny.map"), list)
  end)

  it("reads a 'version 1.0' file with a path in column 2, kept as written #pure", function()
    local body = BODY:gsub("tiny%.map", "maps/dao/tiny.map")
    local list = maps.scenarios(tmpfile("v10.scen", "version 1.0\n" .. body))
    assert_scenarios(expected("maps/dao/tiny.map"), list)
  end)

  it("skips a trailing blank line #pure", function()
    local list = maps.scenarios(tmpfile("blank.scen", "version 1\n" .. BODY .. "\n"))
    assert_scenarios(expected("tiny.map"), list)
  end)

  it("reads CRLF files, with and without a trailing blank line #pure", function()
    local list = maps.scenarios(tmpfile("crlf.scen", crlf("version 1\n" .. BODY)))
    assert_scenarios(expected("tiny.map"), list)
    list = maps.scenarios(tmpfile("crlf-blank.scen", crlf("version 1.0\n" .. BODY .. "\n")))
    assert_scenarios(expected("tiny.map"), list)
  end)

  it("keeps a start == goal row with optimal 0, which the grid finds at cost 0 #pure", function()
    local s = maps.scenarios(tmpfile("same.scen", "version 1\n" .. BODY))[2]
    assert.same(s.start, s.goal)
    assert.equal(0, s.optimal)
    local grid = maps.load(tmpfile("tiny.map", "type octile\nheight 3\nwidth 4\nmap\n....\n....\n....\n"))
    assert.equal(0, grid:find_path(s.start[1], s.start[2], s.goal[1], s.goal[2]).cost)
  end)

  it("computes the tolerance from the printed digits plus 2e-8 * optimal #pure", function()
    local text = "version 1\n"
      .. row(3, "x.map", 9, 9, 0, 0, 1, 1, "1002.5") .. "\n"
      .. row(3, "x.map", 9, 9, 0, 0, 1, 1, "3.41421356") .. "\n"
      .. row(3, "x.map", 9, 9, 0, 0, 1, 1, "7") .. "\n"
    local list = maps.scenarios(tmpfile("tol.scen", text))
    local want = { 0.05 + 2e-8 * 1002.5, 5e-9 + 2e-8 * 3.41421356, 0.5 + 2e-8 * 7 }
    assert.same({ 1002.5, 3.41421356, 7 }, { list[1].optimal, list[2].optimal, list[3].optimal })
    for i = 1, 3 do assert.near(want[i], list[i].tolerance, want[i] * 1e-12) end
  end)

  it("agrees with the grid on a small map, within the tolerance #pure", function()
    local grid = maps.load(tmpfile("tiny2.map", "type octile\nheight 3\nwidth 4\nmap\n....\n.@..\n....\n"))
    local text = "version 1\n"
      .. row(0, "tiny2.map", 4, 3, 0, 0, 3, 2, "4.41421356") .. "\n" -- 3 + sqrt 2, around the @
      .. row(0, "tiny2.map", 4, 3, 0, 0, 2, 0, "2") .. "\n"
      .. row(0, "tiny2.map", 4, 3, 0, 2, 3, 0, "4.41421") .. "\n"    -- 6 significant digits
    for i, s in ipairs(maps.scenarios(tmpfile("tiny2.scen", text))) do
      local cost = grid:find_path(s.start[1], s.start[2], s.goal[1], s.goal[2]).cost
      assert(math.abs(cost - s.optimal) <= s.tolerance,
        ("row %d: cost %.10g, optimal %.10g"):format(i, cost, s.optimal))
    end
  end)

  it("raises for a row that is not a scenario row, naming the file line #pure", function()
    local path = tmpfile("short.scen", "version 1\n" .. BODY .. row(0, "tiny.map", 4, 3, 0, 0, 3, 2) .. "\n")
    assert.equal("'" .. path .. "' line 4 is not a scenario row", error_of(maps.scenarios, path))
    path = tmpfile("short-crlf.scen",
      crlf("version 1\n" .. BODY .. "\n\n" .. row(0, "tiny.map", 4, 3, 0, 0, 3, 2) .. "\n"))
    assert.equal("'" .. path .. "' line 6 is not a scenario row", error_of(maps.scenarios, path))
  end)

  -- BUG (reported, not fixed): gmatch("[^\n]+") drops empty LF lines before
  -- counting, so the LF file says "line 4" where the same CRLF file (above)
  -- says, correctly, "line 6".
  it("names the file line of a bad row after blank lines in an LF file #pure", function()
    local path = tmpfile("short-lf.scen",
      "version 1\n" .. BODY .. "\n\n" .. row(0, "tiny.map", 4, 3, 0, 0, 3, 2) .. "\n")
    assert.equal("'" .. path .. "' line 6 is not a scenario row", error_of(maps.scenarios, path))
  end)

  -- BUG (reported, not fixed): the last column is matched as %S+ and passed
  -- to tonumber unchecked, so "abc" fails in tolerance() with "attempt to
  -- perform arithmetic on a nil value (local 'value')".
  it("raises 'not a scenario row' for a non-numeric optimal length #pure", function()
    local path = tmpfile("nan.scen", "version 1\n" .. row(0, "tiny.map", 4, 3, 0, 0, 3, 2, "abc") .. "\n")
    assert.equal("'" .. path .. "' line 2 is not a scenario row", error_of(maps.scenarios, path))
  end)

  it("raises for a missing file #pure", function()
    local path = base .. "-missing.scen"
    assert.equal("cannot open scenario file '" .. path .. "': " .. path .. ": No such file or directory",
      error_of(maps.scenarios, path))
  end)
end)

-- The benchmark files, every row: rows = scenario rows in the file, same =
-- start == goal rows; both are asserted, so that a short or empty scenario
-- list fails.
local BENCHMARK = {
  { name = "arena",          size = { 49, 49 },   rows = 160,   same = 0 },
  { name = "den312d",        size = { 65, 81 },   rows = 320,   same = 0 },
  { name = "lak303d",        size = { 194, 194 }, rows = 1060,  same = 0 },
  { name = "Berlin_0_256",   size = { 256, 256 }, rows = 930,   same = 0 },
  { name = "brc202d",        size = { 530, 481 }, rows = 2519,  same = 0 },
  { name = "AR0011SR",       size = { 512, 512 }, rows = 2180,  same = 0 },
  { name = "CatwalkAlley",   size = { 512, 512 }, rows = 2640,  same = 0 },
  { name = "Boston_0_512",   size = { 512, 512 }, rows = 1890,  same = 0 },
  { name = "maze512-1-0",    size = { 512, 512 }, rows = 12120, same = 1 },
  { name = "random512-10-0", size = { 512, 512 }, rows = 1780,  same = 3 },
  { name = "random512-20-0", size = { 512, 512 }, rows = 1910,  same = 1 },
  { name = "8room_000",      size = { 512, 512 }, rows = 2140,  same = 1 },
}

-- ../shared/maps relative to the repository root, found from this file's
-- own path (spec/maps_spec.lua) so the current directory does not matter.
local function benchmark_dir()
  local source = debug.getinfo(1, "S").source:gsub("^@", "")
  local spec_dir = source:match("^(.*)/[^/]*$") or "."
  return spec_dir .. "/../../shared/maps"
end

local function is_dir(path)
  local ok, lfs = pcall(require, "lfs")
  if ok then return lfs.attributes(path, "mode") == "directory" end
  local f = io.open(path .. "/README.md", "rb")
  if f then f:close() end
  return f ~= nil
end

describe("Moving AI benchmark files (../shared/maps)", function()
  local dir = benchmark_dir()
  if not is_dir(dir) then
    pending("benchmark data not found at " .. dir .. ": benchmark specs skipped")
    return
  end

  it("holds exactly the expected maps, each with its scenario file #pure", function()
    local lfs = require("lfs")
    local found = {}
    for entry in lfs.dir(dir) do
      local name = entry:match("^(.*)%.map$")
      if name then
        found[#found + 1] = name
        assert(lfs.attributes(dir .. "/" .. entry .. ".scen", "mode") == "file",
          "no scenario file for " .. entry)
      end
    end
    local want = {}
    for i, m in ipairs(BENCHMARK) do want[i] = m.name end
    table.sort(found)
    table.sort(want)
    assert.same(want, found)
  end)

  for _, m in ipairs(BENCHMARK) do
    it(("%s: the map's size, every row names it, start == goal rows have optimal 0 #pure"):format(m.name), function()
      local grid = maps.load(dir .. "/" .. m.name .. ".map")
      assert.same(m.size, { grid:size() })
      assert.equal("no_corner_cutting", grid:diagonal())
      local list = maps.scenarios(dir .. "/" .. m.name .. ".map.scen")
      assert.equal(m.rows, #list)
      local same, failures = 0, {}
      for i, s in ipairs(list) do
        -- column 2 is a path in some files, a bare name in others
        local base_name = s.map:match("[^/]*$")
        if base_name ~= m.name .. ".map" or s.width ~= m.size[1] or s.height ~= m.size[2] then
          failures[#failures + 1] = ("%s row %d: names map %s %dx%d"):format(m.name, i, s.map, s.width, s.height)
        end
        if s.start[1] == s.goal[1] and s.start[2] == s.goal[2] then
          same = same + 1
          if s.optimal ~= 0 then
            failures[#failures + 1] = ("%s row %d: start == goal but optimal %.10g"):format(m.name, i, s.optimal)
          end
        end
      end
      assert(#failures == 0, ("%d of %d rows wrong:\n%s"):format(
        #failures, #list, table.concat(failures, "\n", 1, math.min(#failures, 20))))
      assert.equal(m.same, same)
    end)
  end
end)
