-- bench/lua_astar.lua -- baseline: the best octile A* one can write in pure Lua 5.4.
--
-- This is the yardstick the C library is compared against, so it is meant to be
-- as fast as plain Lua allows, not to be pretty:
--   * the grid is one flat array with a one-cell blocked border, so neighbour
--     tests need no bounds checks;
--   * per-cell state lives in flat arrays indexed by the integer cell index,
--     allocated once per map and reused across queries via a generation stamp
--     (a query never clears anything);
--   * the open list is a binary heap in two parallel arrays (key, cell) with
--     lazy deletion (improved cells are pushed again, stale entries are
--     skipped on pop);
--   * the inner loop is one function with the heap and the 8 neighbours unrolled.
--
-- Costs are fixed-point integers: ONE = 2^24 per cardinal step and
-- DIAG = round(sqrt(2) * ONE) per diagonal step.  Why not doubles: g + h of two
-- nodes that are really tied on f then differ in the last bits depending on
-- the path, which silently defeats the "larger g wins among equal f" tie-break
-- and bloats expansions on open maps.  Integer sums are exact, so ties are
-- exact and the octile heuristic is exactly consistent.  DIAG is off by less
-- than 3e-8 per diagonal step, far inside the benchmark tolerance
-- max(1e-3, 6e-6 * optimal).
--
-- Integers also let the heap order on ONE packed key instead of comparing f
-- and then g (measured ~15-25% faster per expansion than a three-array heap):
--     key = (f << KB) | (h >> HR)
-- Ordering by key is ordering by f, then by smaller h, i.e. larger g (f = g + h).
-- KB is chosen per map so the largest possible f still fits below 2^62 (see
-- new_searcher); HR drops low bits of h so it fits in KB bits, which only
-- coarsens the tie-break (to 1/512 of a step on a 512x512 map), never the order
-- on f.  The g of a popped cell is read back from gval: with a consistent
-- heuristic the first entry popped for a cell carries its latest, best g.
--
-- Usage as a module:
--   local LA = dofile("bench/lua_astar.lua")
--   local map = LA.load_map("x.map")
--   local s = LA.new_searcher(map)
--   local cost, expansions = s:search(sx, sy, gx, gy)   -- 0-based; cost nil if unreachable
-- Usage as a CLI:
--   lua5.4 bench/lua_astar.lua <file.map> <file.map.scen> [stride]
-- prints: queries=N mismatches=M expansions=E seconds=S exp_per_sec=X median_us=U peak_rss_kb=K

local floor, sqrt, abs = math.floor, math.sqrt, math.abs
local clock = os.clock

local LA = {}

local ONE = 1 << 24
local DIAG = floor(sqrt(2) * ONE + 0.5)   -- an integer (floor returns one when it fits)
local DIAG_EXTRA = DIAG - ONE             -- octile h = ONE*max(dx,dy) + DIAG_EXTRA*min(dx,dy)
LA.ONE, LA.DIAG = ONE, DIAG

-- Map object layout:
--   width, height   the map size from the file
--   stride          width + 2 (row length of the padded grid)
--   size            (width + 2) * (height + 2), number of padded cells
--   passable        flat array 1..size of booleans; cell (x, y) (0-based, x = column)
--                   is passable[(y + 1) * stride + (x + 1) + 1]; the border rows and
--                   columns are false.
local function cell_index(map, x, y)
  return (y + 1) * map.stride + x + 2
end
LA.cell_index = cell_index

local function read_lines(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("a")
  f:close()
  local lines = {}
  -- Street maps use CRLF: strip a trailing '\r' from every line.
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    lines[#lines + 1] = line:gsub("\r$", "")
  end
  return lines
end

function LA.load_map(path)
  local lines = read_lines(path)
  local height, width
  local i = 1
  while lines[i] and lines[i] ~= "map" do
    local key, value = lines[i]:match("^(%a+)%s+(%S+)")
    if key == "height" then height = tonumber(value)
    elseif key == "width" then width = tonumber(value) end
    i = i + 1
  end
  assert(lines[i] == "map" and width and height, path .. ": bad map header")
  local stride = width + 2
  local size = stride * (height + 2)
  local passable = {}
  for k = 1, size do passable[k] = false end
  for y = 0, height - 1 do
    local row = lines[i + 1 + y]
    assert(row and #row >= width, path .. ": short or missing map row " .. y)
    local base = (y + 1) * stride + 1
    for x = 0, width - 1 do
      local c = row:byte(x + 1)
      -- '.', 'G', 'S' are passable; everything else ('@', 'O', 'T', 'W') is not.
      passable[base + x + 1] = (c == 46 or c == 71 or c == 83)
    end
  end
  return { width = width, height = height, stride = stride, size = size, passable = passable }
end

-- Returns a list of { sx, sy, gx, gy, optimal, bucket = b, map = name,
-- map_width = w, map_height = h }, coordinates 0-based as in the file.
function LA.load_scen(path)
  local list = {}
  for n, line in ipairs(read_lines(path)) do
    -- Skip the "version" header and blank lines (some files end with one).
    if line ~= "" and not line:match("^version") then
      local f = {}
      for field in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = field end
      assert(#f == 9, path .. ":" .. n .. ": expected 9 tab-separated fields")
      list[#list + 1] = {
        tonumber(f[5]), tonumber(f[6]), tonumber(f[7]), tonumber(f[8]), tonumber(f[9]),
        bucket = tonumber(f[1]), map = f[2],
        map_width = tonumber(f[3]), map_height = tonumber(f[4]),
      }
    end
  end
  return list
end

local Searcher = {}
Searcher.__index = Searcher

local function bit_length(v)
  local b = 0
  while v > 0 do v = v >> 1; b = b + 1 end
  return b
end

function LA.new_searcher(map)
  local size = map.size
  -- Bound every f that can be pushed: a popped g is a shortest distance, so at
  -- most (passable cells - 1) * DIAG; a pushed g adds one more step; h is at
  -- most the octile distance across the whole map.
  local cells = 0
  for k = 1, size do if map.passable[k] then cells = cells + 1 end end
  local w1, h1 = map.width - 1, map.height - 1
  local hmax = w1 < h1 and h1 * ONE + w1 * DIAG_EXTRA or w1 * ONE + h1 * DIAG_EXTRA
  local fmax = cells * DIAG + hmax
  local KB = 62 - bit_length(fmax)
  assert(KB >= 1, "map too large for 64-bit packed heap keys")
  local HR = math.max(0, bit_length(hmax) - KB)

  local gval, stamp, hk, hn = {}, {}, {}, {}
  -- Preallocate so the array parts are sized once, not grown during a query.
  -- The heap can hold duplicates, so it may still grow past `size` on rare
  -- queries; it then keeps that capacity for the following ones.
  for k = 1, size do gval[k] = 0; stamp[k] = 0; hk[k] = 0; hn[k] = 0 end
  return setmetatable({
    map = map, gval = gval, stamp = stamp, hk = hk, hn = hn, gen = 0, KB = KB, HR = HR,
  }, Searcher)
end

-- Returns cost (a float, in map units) and the number of expansions, or
-- nil, expansions when the goal cannot be reached.
function Searcher:search(sx, sy, gx, gy)
  local map = self.map
  local pass, W = map.passable, map.stride
  local gval, stamp, hk, hn = self.gval, self.stamp, self.hk, self.hn
  local KB, HR = self.KB, self.HR

  -- One stamp array serves as both "seen this query" and "closed": a cell is
  -- untouched if stamp < OPEN, open if stamp == OPEN, closed if stamp == CLOSED.
  -- Stamps only grow, so older queries' marks read as untouched.
  local OPEN = self.gen + 2
  local CLOSED = OPEN + 1
  self.gen = OPEN

  if sx < 0 or sy < 0 or gx < 0 or gy < 0 or sx >= map.width or gx >= map.width
      or sy >= map.height or gy >= map.height then
    return nil, 0
  end
  local start = (sy + 1) * W + sx + 2
  local goal = (gy + 1) * W + gx + 2
  if not (pass[start] and pass[goal]) then return nil, 0 end

  -- Upvalues into locals (registers): every use in the loop is then one op cheaper.
  local ONE, DIAG, DIAG_EXTRA = ONE, DIAG, DIAG_EXTRA -- luacheck: ignore 431
  local expansions = 0

  -- Octile distance from (x, y) to the goal, in fixed point.
  local dx, dy = sx - gx, sy - gy
  if dx < 0 then dx = -dx end
  if dy < 0 then dy = -dy end
  local h0 = dx < dy and dy * ONE + dx * DIAG_EXTRA or dx * ONE + dy * DIAG_EXTRA

  gval[start] = 0
  stamp[start] = OPEN
  hk[1], hn[1] = (h0 << KB) | (h0 >> HR), start
  local n = 1   -- heap size

  while n > 0 do
    -- Pop the root (smallest key), then sift the last entry down from the top.
    local u = hn[1]
    do
      local lk, ln = hk[n], hn[n]
      n = n - 1
      local i = 1
      while true do
        local c = i + i
        if c > n then break end
        local ck = hk[c]
        if c < n then
          local rk = hk[c + 1]
          if rk < ck then c = c + 1; ck = rk end
        end
        if ck < lk then
          hk[i], hn[i] = ck, hn[c]
          i = c
        else
          break
        end
      end
      hk[i], hn[i] = lk, ln
    end

    -- Lazy deletion: the heuristic is consistent, so the first pop of a cell
    -- is optimal and every later entry for it is stale.
    if stamp[u] ~= CLOSED then
      stamp[u] = CLOSED
      local gu = gval[u]
      expansions = expansions + 1
      if u == goal then return gu / ONE, expansions end

      local ux = (u - 2) % W       -- back to 0-based map coordinates
      local uy = (u - 2) // W - 1

      -- Cardinal passability decides the diagonals too (no corner cutting).
      local pN, pS, pW, pE = pass[u - W], pass[u + W], pass[u - 1], pass[u + 1]

      -- Each block below relaxes one neighbour v with step cost ONE or DIAG:
      -- if it improves g, record it and push v with key (g + h, h).
      -- The body is repeated 8 times on purpose: a function call per edge
      -- costs more than the rest of the relaxation.
      if pN then
        local v, ng = u - W, gu + ONE
        local s = stamp[v]
        if s < OPEN or (s == OPEN and ng < gval[v]) then
          gval[v] = ng; stamp[v] = OPEN
          local ax, ay = ux - gx, uy - 1 - gy
          if ax < 0 then ax = -ax end
          if ay < 0 then ay = -ay end
          local h = ax < ay and ay * ONE + ax * DIAG_EXTRA or ax * ONE + ay * DIAG_EXTRA
          local key = ((ng + h) << KB) | (h >> HR)
          n = n + 1
          local i = n
          while i > 1 do
            local p = i >> 1
            local pk = hk[p]
            if key < pk then
              hk[i], hn[i] = pk, hn[p]
              i = p
            else
              break
            end
          end
          hk[i], hn[i] = key, v
        end
      end
      if pS then
        local v, ng = u + W, gu + ONE
        local s = stamp[v]
        if s < OPEN or (s == OPEN and ng < gval[v]) then
          gval[v] = ng; stamp[v] = OPEN
          local ax, ay = ux - gx, uy + 1 - gy
          if ax < 0 then ax = -ax end
          if ay < 0 then ay = -ay end
          local h = ax < ay and ay * ONE + ax * DIAG_EXTRA or ax * ONE + ay * DIAG_EXTRA
          local key = ((ng + h) << KB) | (h >> HR)
          n = n + 1
          local i = n
          while i > 1 do
            local p = i >> 1
            local pk = hk[p]
            if key < pk then
              hk[i], hn[i] = pk, hn[p]
              i = p
            else
              break
            end
          end
          hk[i], hn[i] = key, v
        end
      end
      if pW then
        local v, ng = u - 1, gu + ONE
        local s = stamp[v]
        if s < OPEN or (s == OPEN and ng < gval[v]) then
          gval[v] = ng; stamp[v] = OPEN
          local ax, ay = ux - 1 - gx, uy - gy
          if ax < 0 then ax = -ax end
          if ay < 0 then ay = -ay end
          local h = ax < ay and ay * ONE + ax * DIAG_EXTRA or ax * ONE + ay * DIAG_EXTRA
          local key = ((ng + h) << KB) | (h >> HR)
          n = n + 1
          local i = n
          while i > 1 do
            local p = i >> 1
            local pk = hk[p]
            if key < pk then
              hk[i], hn[i] = pk, hn[p]
              i = p
            else
              break
            end
          end
          hk[i], hn[i] = key, v
        end
      end
      if pE then
        local v, ng = u + 1, gu + ONE
        local s = stamp[v]
        if s < OPEN or (s == OPEN and ng < gval[v]) then
          gval[v] = ng; stamp[v] = OPEN
          local ax, ay = ux + 1 - gx, uy - gy
          if ax < 0 then ax = -ax end
          if ay < 0 then ay = -ay end
          local h = ax < ay and ay * ONE + ax * DIAG_EXTRA or ax * ONE + ay * DIAG_EXTRA
          local key = ((ng + h) << KB) | (h >> HR)
          n = n + 1
          local i = n
          while i > 1 do
            local p = i >> 1
            local pk = hk[p]
            if key < pk then
              hk[i], hn[i] = pk, hn[p]
              i = p
            else
              break
            end
          end
          hk[i], hn[i] = key, v
        end
      end
      if pN and pW then
        local v = u - W - 1
        if pass[v] then
          local ng = gu + DIAG
          local s = stamp[v]
          if s < OPEN or (s == OPEN and ng < gval[v]) then
            gval[v] = ng; stamp[v] = OPEN
            local ax, ay = ux - 1 - gx, uy - 1 - gy
            if ax < 0 then ax = -ax end
            if ay < 0 then ay = -ay end
            local h = ax < ay and ay * ONE + ax * DIAG_EXTRA or ax * ONE + ay * DIAG_EXTRA
            local key = ((ng + h) << KB) | (h >> HR)
            n = n + 1
            local i = n
            while i > 1 do
              local p = i >> 1
              local pk = hk[p]
              if key < pk then
                hk[i], hn[i] = pk, hn[p]
                i = p
              else
                break
              end
            end
            hk[i], hn[i] = key, v
          end
        end
      end
      if pN and pE then
        local v = u - W + 1
        if pass[v] then
          local ng = gu + DIAG
          local s = stamp[v]
          if s < OPEN or (s == OPEN and ng < gval[v]) then
            gval[v] = ng; stamp[v] = OPEN
            local ax, ay = ux + 1 - gx, uy - 1 - gy
            if ax < 0 then ax = -ax end
            if ay < 0 then ay = -ay end
            local h = ax < ay and ay * ONE + ax * DIAG_EXTRA or ax * ONE + ay * DIAG_EXTRA
            local key = ((ng + h) << KB) | (h >> HR)
            n = n + 1
            local i = n
            while i > 1 do
              local p = i >> 1
              local pk = hk[p]
              if key < pk then
                hk[i], hn[i] = pk, hn[p]
                i = p
              else
                break
              end
            end
            hk[i], hn[i] = key, v
          end
        end
      end
      if pS and pW then
        local v = u + W - 1
        if pass[v] then
          local ng = gu + DIAG
          local s = stamp[v]
          if s < OPEN or (s == OPEN and ng < gval[v]) then
            gval[v] = ng; stamp[v] = OPEN
            local ax, ay = ux - 1 - gx, uy + 1 - gy
            if ax < 0 then ax = -ax end
            if ay < 0 then ay = -ay end
            local h = ax < ay and ay * ONE + ax * DIAG_EXTRA or ax * ONE + ay * DIAG_EXTRA
            local key = ((ng + h) << KB) | (h >> HR)
            n = n + 1
            local i = n
            while i > 1 do
              local p = i >> 1
              local pk = hk[p]
              if key < pk then
                hk[i], hn[i] = pk, hn[p]
                i = p
              else
                break
              end
            end
            hk[i], hn[i] = key, v
          end
        end
      end
      if pS and pE then
        local v = u + W + 1
        if pass[v] then
          local ng = gu + DIAG
          local s = stamp[v]
          if s < OPEN or (s == OPEN and ng < gval[v]) then
            gval[v] = ng; stamp[v] = OPEN
            local ax, ay = ux + 1 - gx, uy + 1 - gy
            if ax < 0 then ax = -ax end
            if ay < 0 then ay = -ay end
            local h = ax < ay and ay * ONE + ax * DIAG_EXTRA or ax * ONE + ay * DIAG_EXTRA
            local key = ((ng + h) << KB) | (h >> HR)
            n = n + 1
            local i = n
            while i > 1 do
              local p = i >> 1
              local pk = hk[p]
              if key < pk then
                hk[i], hn[i] = pk, hn[p]
                i = p
              else
                break
              end
            end
            hk[i], hn[i] = key, v
          end
        end
      end
    end
  end
  return nil, expansions
end

-- Tolerance from the shared maps README: the older scen files print 6
-- significant digits, so a flat 1e-3 fails on lengths >= 1000.
function LA.matches(cost, optimal)
  return cost ~= nil and abs(cost - optimal) <= math.max(1e-3, 6e-6 * optimal)
end

-- Peak resident set size in kB (VmHWM, the same figure as getrusage's
-- ru_maxrss on Linux); -1 where /proc is not available.
local function peak_rss_kb()
  local f = io.open("/proc/self/status", "r")
  if not f then return -1 end
  local text = f:read("a")
  f:close()
  return tonumber(text:match("VmHWM:%s*(%d+)")) or -1
end

-- Runs every stride-th scenario (the 1st, the 1+stride-th, ...) and returns a
-- summary table; mismatching rows are reported on stderr.
function LA.run(map_path, scen_path, stride)
  stride = stride or 1
  local map = LA.load_map(map_path)
  local scen = LA.load_scen(scen_path)
  local searcher = LA.new_searcher(map)
  local times = {}
  local queries, mismatches, total_exp, total_time = 0, 0, 0, 0
  for k = 1, #scen, stride do
    local sc = scen[k]
    assert(sc.map_width == map.width and sc.map_height == map.height,
      scen_path .. ": scenario map size differs from the map")
    local t0 = clock()
    local cost, exp = searcher:search(sc[1], sc[2], sc[3], sc[4])
    local dt = clock() - t0
    queries = queries + 1
    total_exp = total_exp + exp
    total_time = total_time + dt
    times[queries] = dt
    if not LA.matches(cost, sc[5]) then
      mismatches = mismatches + 1
      io.stderr:write(string.format("mismatch: row %d (%d,%d)->(%d,%d) optimal %s got %s\n",
        k, sc[1], sc[2], sc[3], sc[4], tostring(sc[5]), tostring(cost)))
    end
  end
  table.sort(times)
  local median = 0
  if queries > 0 then
    local m = queries // 2
    median = queries % 2 == 1 and times[m + 1] or (times[m] + times[m + 1]) / 2
  end
  return {
    queries = queries, mismatches = mismatches, expansions = total_exp,
    seconds = total_time,
    exp_per_sec = total_time > 0 and total_exp / total_time or 0,
    median_us = median * 1e6,
    peak_rss_kb = peak_rss_kb(),
  }
end

function LA.format_summary(r)
  return string.format(
    "queries=%d mismatches=%d expansions=%d seconds=%.6f exp_per_sec=%.0f median_us=%.3f peak_rss_kb=%d",
    r.queries, r.mismatches, r.expansions, r.seconds, r.exp_per_sec, r.median_us, r.peak_rss_kb)
end

-- CLI when run as a script (lua5.4 bench/lua_astar.lua ...); a module when
-- loaded with dofile/require (then `...` is empty or the module name).
local is_main = arg and arg[0] and debug.getinfo(1, "S").source == "@" .. arg[0]
if is_main then
  local map_path, scen_path, stride = arg[1], arg[2], tonumber(arg[3] or "1")
  if not (map_path and scen_path) or not stride or stride < 1 or stride % 1 ~= 0 then
    io.stderr:write("usage: lua5.4 bench/lua_astar.lua <file.map> <file.map.scen> [stride]\n")
    os.exit(2)
  end
  local r = LA.run(map_path, scen_path, math.tointeger(stride))
  print(LA.format_summary(r))
  os.exit(r.mismatches == 0 and 0 or 1)
end

return LA
