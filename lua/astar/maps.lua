--- astar.maps: Moving AI Lab benchmark maps and scenarios.
--
-- Formats: https://movingai.com/benchmarks/formats.html
--   .map       "type octile", "height H", "width W", "map", then H rows of W
--              characters; '.', 'G', 'S' are passable, everything else
--              ('@', 'O', 'T', 'W') is blocked here.
--   .map.scen  "version 1", then tab-separated rows: bucket, map, width,
--              height, start x, start y, goal x, goal y, optimal length,
--              with 0-based coordinates.
-- Both parsers accept LF and CRLF line endings and skip blank lines.
local core = require("astar.backend").core
local describe = require("astar.describe").value

local maps = {}

local function read_all(path, what)
  if type(path) ~= "string" then
    error(("bad argument #1 to '%s' (string expected, got %s)"):format(
      what == "map" and "load" or "scenarios", type(path)), 3)
  end
  local f, err = io.open(path, "rb")
  if not f then error(("cannot open %s '%s': %s"):format(what, path, err), 3) end
  local text, rerr = f:read("*a")
  f:close()
  if not text then -- io.open succeeds on a directory; reading it fails
    error(("cannot open %s '%s': %s"):format(what, path, rerr or "not a readable file"), 3)
  end
  return text
end

-- The inner text of a "bad argument #n to 'f' (text)" error.
local function inner(msg)
  return tostring(msg):match("^bad argument #%d+ to '[^']*' %((.*)%)$") or tostring(msg)
end

local diagonal_rules = { never = true, no_corner_cutting = true, one_obstacle = true, always = true }

local passable = { ["."] = true, G = true, S = true, default = false }

local floor = math.floor
local MAX_SIDE = 65535                     -- ASTAR_GRID_MAX_SIDE

-- Checks the options of load / parse ({ diagonal = rule }) and returns a
-- plain table of them for the core (or nil).  Like the C functions, keys are
-- read raw and values through __index; each value is read once, so a table
-- with metamethods cannot pass the check and then hand the core another value.
local function check_opts(opts, fname)
  if opts == nil then return nil end
  if type(opts) ~= "table" then
    error(("bad argument #2 to '%s' (table expected, got %s)"):format(fname, type(opts)), 3)
  end
  for k in next, opts do
    if k ~= "diagonal" and k ~= "cell_size" and k ~= "origin" then
      error(("bad argument #2 to '%s' (unknown option %s)"):format(fname, describe(k)), 3)
    end
  end
  local rule = opts.diagonal
  if rule ~= nil and not diagonal_rules[rule] then
    error(("bad argument #2 to '%s' (diagonal must be \"never\", \"no_corner_cutting\", "
      .. "\"one_obstacle\" or \"always\", got %s)"):format(fname, describe(rule)), 3)
  end
  -- the world frame is checked by the core (astar.grid's rules and words)
  local plain = { diagonal = rule, cell_size = opts.cell_size, origin = opts.origin }
  if next(plain) == nil then return nil end
  local ok, err = pcall(core.grid, 1, 1, { cell_size = plain.cell_size, origin = plain.origin })
  if not ok then
    error(("bad argument #2 to '%s' (%s)"):format(fname, inner(err)), 3)
  end
  return plain
end

-- A header value as a number: decimal text only ("49", "3.0", "1e3"), so
-- "0x31", "inf" and "nan" are refused the same on every Lua (5.1's tonumber
-- takes "inf" and "nan").  nil when the text is not a decimal number.
local function header_number(text)
  if text:find("[^%d%.eE+-]") then return nil end
  return tonumber(text)
end

-- The height or width of the header: an integer in 1..65535 (the largest
-- grid side), else an error naming the file, the key and the value.
local function header_side(header, key, label)
  local text = header[key]
  local n = header_number(text)
  if not n or n ~= floor(n) or n < 1 or n > MAX_SIDE then
    error(("%s: %s must be an integer in 1..%d, got %s"):format(label, key, MAX_SIDE,
      n and describe(n) or describe(text)), 4)
  end
  return n
end

-- Parses the text of a .map file; errors name `label` and point at the
-- caller of the public function (level 3 from here: the public functions
-- call this without a tail call, so their frame is there on every Lua).
-- `opts` is what check_opts returned.
local function parse_map(text, opts, label)
  local header, rows = {}, nil
  local pos = 1
  while pos <= #text do
    local line_end = text:find("\n", pos, true) or #text + 1
    local line = text:sub(pos, line_end - 1):gsub("\r$", "")
    pos = line_end + 1
    if line == "map" then
      rows = text:sub(pos)
      break
    end
    local key, value = line:match("^(%a+)%s+(%S+)%s*$")
    if key then header[key] = value end
  end
  if not rows or not header.width or not header.height then
    error(("%s is not a Moving AI map (expected 'height', 'width' and 'map' lines)"):format(label), 3)
  end
  -- in the files' order: height, then width
  local h = header_side(header, "height", label)
  local w = header_side(header, "width", label)
  local ok, grid = pcall(core.grid_from_string, rows, passable, opts)
  if not ok then error(("%s: %s"):format(label, inner(grid)), 3) end
  local gw, gh = grid:size()
  if gw ~= w or gh ~= h then
    error(("%s says %dx%d but its rows make %dx%d"):format(label, w, h, gw, gh), 3)
  end
  return grid
end

--- maps.load(path [, opts]) -> grid.
-- opts.diagonal defaults to "no_corner_cutting", the benchmark's rule.
function maps.load(path, opts)
  local text = read_all(path, "map")
  local grid = parse_map(text, check_opts(opts, "load"), "'" .. path .. "'")
  return grid                              -- not a tail call: see parse_map
end

--- maps.parse(text [, opts]) -> grid: the same from the text of a .map file
-- (a game may read its files through its own file system).
function maps.parse(text, opts)
  if type(text) ~= "string" then
    error(("bad argument #1 to 'parse' (string expected, got %s)"):format(type(text)), 2)
  end
  local grid = parse_map(text, check_opts(opts, "parse"), "map text")
  return grid                              -- not a tail call: see parse_map
end

-- The precision a scenario file promises for a printed length: half a unit
-- of its last digit ("1002.5" -> 0.05, "3.41421356" -> 5e-9), plus the
-- files' own computational noise.  That noise was measured on every row of
-- the 12 shared maps (27,219 rows, exact path costs from this library): the
-- largest excess over half a unit is 1.07e-8 * optimal (the 6-digit files
-- round slightly imprecise values; the 8-decimal files print digits their
-- generator did not compute exactly, e.g. 44.04163055 for 30 + 10 sqrt 2 =
-- 44.0416305603).  2e-8 * optimal covers it with a 2x margin and is still far
-- tighter than any real error (sqrt 2 taken as 1.41421 is 3.6e-6 per step).
local FILE_NOISE = 2e-8

local function tolerance(s, value)
  local decimals = s:match("%.(%d+)$")
  return 0.5 * 10 ^ -(decimals and #decimals or 0) + FILE_NOISE * value
end

-- Parses the text of a .map.scen file (errors as parse_map).
local function parse_scenarios(text, label)
  local list = {}
  local n = 0
  for raw in (text .. "\n"):gmatch("([^\n]*)\n") do -- every line, blank ones too
    local line = raw:gsub("\r$", "")
    n = n + 1
    if line ~= "" and not (n == 1 and line:match("^version")) then
      local b, m, mw, mh, sx, sy, gx, gy, opt = line:match(
        "^(%d+)\t([^\t]*)\t(%d+)\t(%d+)\t(%d+)\t(%d+)\t(%d+)\t(%d+)\t(%d+%.?%d*)%s*$")
      if not b then error(("%s line %d is not a scenario row"):format(label, n), 3) end
      list[#list + 1] = {
        bucket = tonumber(b), map = m, width = tonumber(mw), height = tonumber(mh),
        start = { tonumber(sx) + 1, tonumber(sy) + 1 },
        goal = { tonumber(gx) + 1, tonumber(gy) + 1 },
        optimal = tonumber(opt), tolerance = tolerance(opt, tonumber(opt)),
      }
    end
  end
  return list
end

--- maps.scenarios(path) -> list of scenarios, each
-- { start = {x, y}, goal = {x, y}, optimal = number, tolerance = number,
--   bucket = integer, map = string, width = integer, height = integer }
-- with 1-based coordinates.  tolerance is how far a correct path cost may be
-- from `optimal`: half a unit of the last digit the file printed, plus
-- 2e-8 * optimal for the files' own rounding noise (see FILE_NOISE).
function maps.scenarios(path)
  local list = parse_scenarios(read_all(path, "scenario file"), "'" .. path .. "'")
  return list                              -- not a tail call: see parse_map
end

--- maps.parse_scenarios(text) -> the same from the text of a .map.scen file.
function maps.parse_scenarios(text)
  if type(text) ~= "string" then
    error(("bad argument #1 to 'parse_scenarios' (string expected, got %s)"):format(type(text)), 2)
  end
  local list = parse_scenarios(text, "scenario text")
  return list                              -- not a tail call: see parse_map
end

return maps
