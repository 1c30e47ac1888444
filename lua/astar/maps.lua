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
local core = require("astar.core")

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

--- maps.load(path [, opts]) -> grid.
-- opts.diagonal defaults to "no_corner_cutting", the benchmark's rule.
function maps.load(path, opts)
  local text = read_all(path, "map")
  if opts ~= nil then
    if type(opts) ~= "table" then
      error(("bad argument #2 to 'load' (table expected, got %s)"):format(type(opts)), 2)
    end
    for k, v in pairs(opts) do
      if k ~= "diagonal" then error(("bad argument #2 to 'load' (unknown option %q)"):format(tostring(k)), 2) end
      if not diagonal_rules[v] then
        error(("bad argument #2 to 'load' (diagonal must be \"never\", \"no_corner_cutting\", "
          .. "\"one_obstacle\" or \"always\", got %s)"):format(
          type(v) == "string" and ("%q"):format(v) or tostring(v)), 2)
      end
    end
  end
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
  local w, h = tonumber(header.width), tonumber(header.height)
  if not rows or not w or not h then
    error(("'%s' is not a Moving AI map (expected 'height', 'width' and 'map' lines)"):format(path), 2)
  end
    local ok, grid = pcall(core.grid_from_string, rows, passable, opts)
  if not ok then error(("'%s': %s"):format(path, inner(grid)), 2) end
  local gw, gh = grid:size()
  if gw ~= w or gh ~= h then
    error(("'%s' says %dx%d but its rows make %dx%d"):format(path, w, h, gw, gh), 2)
  end
  return grid
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

--- maps.scenarios(path) -> list of scenarios, each
-- { start = {x, y}, goal = {x, y}, optimal = number, tolerance = number,
--   bucket = integer, map = string, width = integer, height = integer }
-- with 1-based coordinates.  tolerance is how far a correct path cost may be
-- from `optimal`: half a unit of the last digit the file printed, plus
-- 2e-8 * optimal for the files' own rounding noise (see FILE_NOISE).
function maps.scenarios(path)
  local text = read_all(path, "scenario file")
    local list = {}
  local n = 0
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do -- every line, blank ones too
    line = line:gsub("\r$", "")
    n = n + 1
    if line ~= "" and not (n == 1 and line:match("^version")) then
      local b, m, mw, mh, sx, sy, gx, gy, opt = line:match(
        "^(%d+)\t([^\t]*)\t(%d+)\t(%d+)\t(%d+)\t(%d+)\t(%d+)\t(%d+)\t(%d+%.?%d*)%s*$")
      if not b then error(("'%s' line %d is not a scenario row"):format(path, n), 2) end
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

return maps
