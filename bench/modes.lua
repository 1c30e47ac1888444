-- bench/modes.lua -- every search mode of the grid shapes on one Moving AI
-- map, for A/B comparisons of the search core (bench/ab.lua modes): the
-- Moving AI families time the default (jump point search) and A*'s fast
-- path; these time what the families do not reach.
--
--   lua5.4 bench/modes.lua <file.map> [queries] [mode]
--
-- Modes, each on the same seeded start/goal pairs between open cells:
--   astar      square grid, algorithm = "astar" (the fast path)
--   general    the same with a penalty field of zeros (the general loop)
--   costs      a cost layer on every tenth cell (the general loop, costs)
--   sized      size = 2 (the sized loop)
--   reverse    grid:distances from each start (the reverse loop, whole map)
--   hex        a hex grid with the map's blocked cells (its fast path)
--   hex_costs  the same with a cost layer (its general loop)
-- Prints one line per mode: mode= seconds= expansions= (CPU time,
-- os.clock), and the sum of path costs as a check that A and B agree.
local astar = require("astar")

local map_path = arg[1]
local QUERIES = math.tointeger(tonumber(arg[2] or "200"))
local ONLY = arg[3] -- one mode (for callgrind's instruction counts), or all
if not (map_path and QUERIES) then
  io.stderr:write("usage: lua5.4 bench/modes.lua <file.map> [queries] [mode]\n")
  os.exit(2)
end

local grid = astar.maps.load(map_path)
local w, h = grid:size()
local hex = astar.hex(w, h)
for y = 1, h do
  for x = 1, w do
    if grid:is_blocked(x, y) then hex:set_blocked(x, y, true) end
  end
end

-- seeded pairs of open cells in one component of the square grid
local seed = 12345
local function rand(n)
  seed = (seed * 1103515245 + 12345) % 2147483648
  return seed % n + 1
end
local pairs_ = {}
while #pairs_ < QUERIES do
  local x1, y1, x2, y2 = rand(w), rand(h), rand(w), rand(h)
  if grid:connected(x1, y1, x2, y2) and hex:connected(x1, y1, x2, y2) then
    pairs_[#pairs_ + 1] = { x1, y1, x2, y2 }
  end
end

local costly = astar.maps.load(map_path)
local hex_costly = astar.hex(w, h)
for y = 1, h do
  for x = 1, w do
    if grid:is_blocked(x, y) then hex_costly:set_blocked(x, y, true) end
    if (x + y * w) % 10 == 0 then
      costly:set_cost(x, y, 3)
      hex_costly:set_cost(x, y, 3)
    end
  end
end
local zeros = astar.field(grid, 0)

local function paths(g, opts, n)
  local sum, exp = 0, 0
  for i = 1, n or #pairs_ do
    local p = pairs_[i]
    local path, _, stats = g:find_path(p[1], p[2], p[3], p[4], opts)
    if path then sum = sum + path.cost end
    exp = exp + (path or stats).expanded
  end
  return sum, exp
end

local modes = {
  { "astar", function() return paths(grid, { algorithm = "astar" }) end },
  { "general", function() return paths(grid, { algorithm = "astar", penalty = zeros }) end },
  { "costs", function() return paths(costly) end },
  { "sized", function() return paths(grid, { size = 2 }) end },
  { "reverse", function()
    local sum = 0
    for i = 1, math.max(1, #pairs_ // 20) do
      local p = pairs_[i]
      local f = grid:distances({ { p[1], p[2] } })
      sum = sum + f:get(p[3], p[4])
    end
    return sum, 0
  end },
  { "hex", function() return paths(hex) end },
  { "hex_costs", function() return paths(hex_costly) end },
}

for _, m in ipairs(modes) do
  if ONLY and m[1] ~= ONLY then goto next end
  local t0 = os.clock()
  local sum, exp = m[2]()
  print(("mode=%s seconds=%.6f expansions=%d check=%.6f"):format(m[1], os.clock() - t0, exp, sum))
  ::next::
end
