--- astar.svg: pictures of grids, graphs, searches and paths, as SVG text.
--
--   local svg = require("astar.svg").svg
--   local p = grid:find_path(1, 1, 20, 20, { visited = true })
--   local text = svg(grid, { path = p, visited = p.visited, title = "octile" })
--
-- The output is standalone SVG 1.1, deterministic (the same input gives the
-- same bytes on every Lua version) and small: blocked and tinted cells are
-- merged into horizontal runs, graph edges that go both ways share one
-- <path>, and the fill uses at most 16 shades.  Pure Lua; 5.1 to 5.5, LuaJIT.
--
-- Structure, in drawing order (the ids are stable, for tools and specs):
--   <g id="map">        everything below, in cells / graph units
--   grid:
--     <g id="cells">    one background rect (the open cells), then one <g>
--                       per kind with its runs: class blocked, dear (cost
--                       > 1), cheap (cost < 1), tagged (cost 1 and a tag)
--     <g id="fill">     the expanded cells as runs, one <g> per shade, light
--                       (early) to dark (late)
--     <path id="gridlines">  cell borders, when cells are 6 px or more
--     <g id="field">    the field's cells above 0, as runs (opts.field)
--     <g id="path">     a <polyline> through the path's cell centres
--     <g id="points">   a <polyline> through the points (smooth, any_angle)
--     <g id="ends">     <circle id="start">, <circle id="goal">
--   hex grid: the same ids, with <path>s of hexagons for cells and fill
--     (class open, blocked, dear, cheap, tagged; one path per shade)
--   graph:
--     <path id="edges-both">  one segment per pair of nodes joined both ways
--     <g id="edges-one-way">  one <line> with an arrow per pair joined one
--                       way only
--     <g id="path">     a <polyline> through the path's nodes
--     <g id="nodes">    one <circle> per node, in id order; an expanded
--                       node carries its shade as fill, a disabled one dark
--     <g id="ends">     <circle id="start">, <circle id="goal">
local M = {}

local floor, sqrt, huge, max, min = math.floor, math.sqrt, math.huge, math.max, math.min
-- Lists are read raw, as the C functions read them (lua_rawlen, lua_rawgeti);
-- fields (opts.cell, path.nodes, trace[i].node) through __index, once each.
-- 5.1 and LuaJIT have no rawlen, and their # is raw on tables.
local rawlen = rawlen or function(t) return #t end

-- Values in error messages, as the C core writes them.
local describe_mod = require("astar.describe")
local typename, describe = describe_mod.type, describe_mod.value

-- Raised from svg() itself (level 3: the caller of svg).
local function bad(n, msg)
  error(("bad argument #%d to 'svg' (%s)"):format(n, msg), 3)
end

-- Numbers in the output: at most 3 decimals, no trailing zeros, no "-0",
-- identical on every Lua (5.3's integer/float distinction never shows).
local function num(v)
  local s = ("%.3f"):format(v):gsub("0+$", ""):gsub("%.$", "")
  if s == "-0" then s = "0" end
  return s
end

-- The scale of the map's transform: 3 decimals would turn 480 / 1e6 into 0
-- (an empty picture), so below 1 it keeps 6 significant digits (an exponent,
-- "4.8e-07", is valid in SVG numbers).  Same bytes on every Lua.
local function scale_text(v)
  if v >= 1 then return num(v) end
  return ("%.6g"):format(v)
end

local xml_escapes = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&apos;" }

local REPLACEMENT = "\239\191\189"       -- U+FFFD in UTF-8

-- s with every byte that does not start a well-formed UTF-8 sequence of an
-- XML character replaced by U+FFFD: no overlong forms, no surrogates, nothing
-- above U+10FFFF, not U+FFFE or U+FFFF.  The document says encoding="UTF-8",
-- so a title in Latin-1 (or any bytes) must not make it unreadable.
local function utf8_text(s)
  if not s:find("[\128-\255]") then return s end
  local out, i, n = {}, 1, #s
  while i <= n do
    local c = s:byte(i)
    local len, lo, hi = 0, 0x80, 0xBF      -- sequence length, second byte's range
    if c < 0x80 then len = 1
    elseif c >= 0xC2 and c <= 0xDF then len = 2
    elseif c >= 0xE0 and c <= 0xEF then
      len = 3
      if c == 0xE0 then lo = 0xA0 elseif c == 0xED then hi = 0x9F end
    elseif c >= 0xF0 and c <= 0xF4 then
      len = 4
      if c == 0xF0 then lo = 0x90 elseif c == 0xF4 then hi = 0x8F end
    end
    local ok = len > 0 and i + len - 1 <= n
    if ok and len > 1 then
      local b = s:byte(i + 1)
      ok = b >= lo and b <= hi
      for k = i + 2, i + len - 1 do
        if not ok then break end
        b = s:byte(k)
        ok = b >= 0x80 and b <= 0xBF
      end
      if ok and c == 0xEF and s:byte(i + 1) == 0xBF and s:byte(i + 2) >= 0xBE then ok = false end
    end
    if ok then
      out[#out + 1] = s:sub(i, i + len - 1)
      i = i + len
    else
      out[#out + 1] = REPLACEMENT
      i = i + 1
    end
  end
  return table.concat(out)
end

local function xml_text(s)
  -- control characters are not allowed in XML 1.0 (tab, LF and CR are)
  return (utf8_text(s):gsub("[%z\1-\8\11\12\14-\31]", ""):gsub("[&<>\"']", xml_escapes))
end

local LEVELS = 16                          -- shades of the fill
local LIGHT = { 0xde, 0xeb, 0xf7 }         -- ColorBrewer "Blues", first and last
local DARK = { 0x08, 0x30, 0x6b }

--- The fill colour of shade `level` out of `levels`: level 1 is the lightest.
local function shade(level, levels)
  local t = (level - 0.5) / levels
  local c = {}
  for i = 1, 3 do c[i] = floor(LIGHT[i] + (DARK[i] - LIGHT[i]) * t + 0.5) end
  return ("#%02x%02x%02x"):format(c[1], c[2], c[3])
end

local COLOURS = {
  background = "#ffffff", text = "#222222",
  open = "#f4f1ea", blocked = "#3b3b3b", dear = "#e3c98f", cheap = "#bfe3b4", tagged = "#b9d3ee",
  gridline = "#000000", edge = "#8a8a8a", node = "#ffffff", node_stroke = "#555555", disabled = "#3b3b3b",
  path = "#e8590c", start = "#2b8a3e", goal = "#c92a2a", points = "#1971c2", field = "#e03131",
}

local FIELD_LEVELS = 8                     -- opacities of a drawn field

-- The points of a smoothed or any-angle path: a list of {x, y} inside the
-- w x h grid (cell coordinates; fractions allowed).  nil, msg on bad input.
local function read_points(pts, w, h)
  if pts == nil then return {} end
  if type(pts) ~= "table" then
    return nil, ("points must be a list of {x, y}, got %s"):format(describe(pts))
  end
  local out = {}
  for i = 1, rawlen(pts) do
    local p = rawget(pts, i)
    local x, y = type(p) == "table" and rawget(p, 1), type(p) == "table" and rawget(p, 2)
    if type(x) ~= "number" or type(y) ~= "number" or not (x >= 0.5 and x <= w + 0.5)
      or not (y >= 0.5 and y <= h + 0.5) then
      return nil, ("points[%d] must be a point {x, y} inside the %dx%d grid, got %s")
        :format(i, w, h, describe(p))
    end
    out[i] = { x, y }
  end
  return out
end

-- The shade level (1..FIELD_LEVELS) of every cell of a field whose value is
-- above 0 (inf: the darkest), by value over the largest finite one; nil,
-- msg when it is not a field of the grid's size.
local function read_field(f, w, h)
  if f == nil then return nil end
  if typename(f) ~= "astar.Field" then
    return nil, ("field must be an astar.Field, got %s"):format(describe(f))
  end
  local fw, fh = f:size()
  if fw ~= w or fh ~= h then
    return nil, ("field is %dx%d but the grid is %dx%d"):format(fw, fh, w, h)
  end
  local top, v = 0, {}
  for y = 1, h do
    for x = 1, w do
      local c = f:get(x, y)
      v[(y - 1) * w + x] = c
      if c > top and c < huge then top = c end
    end
  end
  local level = {}
  for id, c in pairs(v) do
    if c > 0 then
      level[id] = c == huge and FIELD_LEVELS or max(1, floor(c / top * FIELD_LEVELS + 0.5))
      if top == 0 then level[id] = FIELD_LEVELS end
    end
  end
  return level
end

local options = { path = true, visited = true, trace = true, cell = true, title = true, points = true,
  field = true }

-- Checks an id against 1..count; returns an error message or nil.
local function id_error(where, v, count, what)
  if type(v) ~= "number" or v ~= floor(v) or v < 1 or v > count then
    if count == 0 then
      return ("%s must be a %s id, but there are no %ss (got %s)"):format(where, what, what, describe(v))
    end
    return ("%s must be a %s id in 1..%d, got %s"):format(where, what, count, describe(v))
  end
end

-- The fill: a list of distinct ids in order of first expansion, from
-- `visited` (ids) or `trace` (entries with .node).  nil, msg on bad input.
local function read_fill(opts, count, what)
  local v, t = opts.visited, opts.trace
  local ids = {}                           -- the ids read, checked, in order
  if v ~= nil then
    if type(v) ~= "table" then return nil, ("visited must be a list of %s ids, got %s"):format(what, describe(v)) end
    for i = 1, rawlen(v) do
      local id = rawget(v, i)
      local msg = id_error(("visited[%d]"):format(i), id, count, what)
      if msg then return nil, msg end
      ids[i] = id
    end
  end
  if t ~= nil then
    if type(t) ~= "table" then return nil, ("trace must be a list of trace entries, got %s"):format(describe(t)) end
    local from_trace = {}
    for i = 1, rawlen(t) do
      local entry = rawget(t, i)
      if type(entry) ~= "table" then
        return nil, ("trace[%d] must be a table { node = id, ... }, got %s"):format(i, describe(entry))
      end
      local id = entry.node
      local msg = id_error(("trace[%d].node"):format(i), id, count, what)
      if msg then return nil, msg end
      from_trace[i] = id
    end
    if v == nil then ids = from_trace end
  end
  local order, seen = {}, {}
  for _, id in ipairs(ids) do
    if not seen[id] then
      seen[id] = true
      order[#order + 1] = id
    end
  end
  return order
end

-- The path's node ids from a find_path result ({ nodes = ... }) or a plain
-- list of ids.  nil, msg on bad input.
local function read_path(p, count, what)
  if p == nil then return {} end
  if type(p) ~= "table" then
    return nil, ("path must be a find_path result or a list of %s ids, got %s"):format(what, describe(p))
  end
  local list, name = p, "path"
  local nodes = p.nodes
  if nodes ~= nil then
    list, name = nodes, "path.nodes"
    if type(list) ~= "table" then
      return nil, ("path.nodes must be a list of %s ids, got %s"):format(what, describe(list))
    end
  end
  local ids = {}
  for i = 1, rawlen(list) do
    local id = rawget(list, i)
    local msg = id_error(("%s[%d]"):format(name, i), id, count, what)
    if msg then return nil, msg end
    ids[i] = id
  end
  return ids
end

-- Level (1..K) of each filled id: early light, late dark.
local function fill_levels(order)
  local n = #order
  local k = min(n, LEVELS)
  local level = {}
  for rank, id in ipairs(order) do level[id] = floor((rank - 1) * k / n) + 1 end
  return level, k
end

-- The document around the map: size in pixels, optional title band.
local function document(out, width, height, title, body)
  local band = title and 24 or 0
  local total_h = height + band
  out[#out + 1] = '<?xml version="1.0" encoding="UTF-8"?>'
  out[#out + 1] = ('<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="%s" height="%s" viewBox="0 0 %s %s">')
    :format(num(width), num(total_h), num(width), num(total_h))
  if title then out[#out + 1] = ("<title>%s</title>"):format(xml_text(title)) end
  out[#out + 1] = ('<rect width="%s" height="%s" fill="%s"/>'):format(num(width), num(total_h), COLOURS.background)
  if title then
    out[#out + 1] = ('<text x="6" y="17" font-family="sans-serif" font-size="14" fill="%s">%s</text>')
      :format(COLOURS.text, xml_text(title))
  end
  body(band)
  out[#out + 1] = "</svg>"
  return table.concat(out, "\n") .. "\n"
end

-- Horizontal runs of cells with the same class: for each row, cls(x, y)
-- returns a class key or nil; emit(key, x, y, len) is called per run.
local function runs(w, h, cls, emit)
  for y = 1, h do
    local x = 1
    while x <= w do
      local k = cls(x, y)
      if k ~= nil then
        local x2 = x
        while x2 < w and cls(x2 + 1, y) == k do x2 = x2 + 1 end
        emit(k, x, y, x2 - x + 1)
        x = x2 + 1
      else
        x = x + 1
      end
    end
  end
end

-- method(obj) for our C object: its size or node count.  A closed object
-- raises; the error is re-raised at the caller of svg (level 4: this,
-- draw_grid or draw_graph, svg, its caller).  Called through pcall, the C
-- function has no Lua caller, so its message names no place in this file.
local function size_of(obj, method)
  local ok, a, b = pcall(method, obj)
  if not ok then error(a, 4) end
  return a, b
end

local function markers(out, sx, sy, gx, gy, r, stroke)
  out[#out + 1] = ('<circle id="start" cx="%s" cy="%s" r="%s" fill="%s" stroke="#ffffff" stroke-width="%s"/>')
    :format(num(sx), num(sy), num(r), COLOURS.start, num(stroke))
  out[#out + 1] = ('<circle id="goal" cx="%s" cy="%s" r="%s" fill="%s" stroke="#ffffff" stroke-width="%s"/>')
    :format(num(gx), num(gy), num(r), COLOURS.goal, num(stroke))
end

local function polyline(out, pts, width)
  out[#out + 1] = ('<polyline points="%s" fill="none" stroke="%s" stroke-width="%s" '
    .. 'stroke-linecap="round" stroke-linejoin="round"/>'):format(table.concat(pts, " "), COLOURS.path, num(width))
end

local function draw_grid(grid, opts, cell, title)
  local w, h = size_of(grid, grid.size)
  local count = w * h
  local order, msg = read_fill(opts, count, "cell")
  if not order then return nil, msg end
  local path
  path, msg = read_path(opts.path, count, "cell")
  if not path then return nil, msg end
  local points
  points, msg = read_points(opts.points, w, h)
  if not points then return nil, msg end
  local field
  field, msg = read_field(opts.field, w, h)
  if msg then return nil, msg end
  size_of(grid, grid.size)                 -- still open after the __index calls above
  if cell then
    -- every number in the picture must stay finite: its size in pixels, and
    -- the path and markers, at least a few pixels wide, in cells (5 / cell)
    if max(w, h) * cell + 24 == huge then
      return nil, ("cell too large for a %dx%d grid (the picture's size in pixels overflows), got %s")
        :format(w, h, describe(cell))
    end
    if 5 / cell == huge then
      return nil, ("cell too small (a 5-pixel marker would be inf cells wide), got %s"):format(describe(cell))
    end
  end
  cell = cell or min(24, max(1, 480 / max(w, h)))
  local out = {}
  return document(out, w * cell, h * cell, title, function(band)
    out[#out + 1] = ('<g id="map" transform="translate(0,%s) scale(%s)">'):format(num(band), scale_text(cell))
    -- cells: open background, then runs of blocked / dear / cheap / tagged
    out[#out + 1] = '<g id="cells">'
    out[#out + 1] = ('<rect width="%s" height="%s" fill="%s"/>'):format(num(w), num(h), COLOURS.open)
    local kind = {}
    for y = 1, h do
      for x = 1, w do
        local k
        if grid:is_blocked(x, y) then
          k = "blocked"
        else
          local c = grid:get_cost(x, y)
          if c > 1 then k = "dear" elseif c < 1 then k = "cheap" elseif grid:get_tag(x, y) then k = "tagged" end
        end
        kind[(y - 1) * w + x] = k
      end
    end
    for _, k in ipairs({ "blocked", "dear", "cheap", "tagged" }) do
      local rects = {}
      runs(w, h, function(x, y) return kind[(y - 1) * w + x] == k or nil end, function(_, x, y, len)
        rects[#rects + 1] = ('<rect x="%s" y="%s" width="%s" height="1"/>'):format(num(x - 1), num(y - 1), num(len))
      end)
      if #rects > 0 then
        out[#out + 1] = ('<g class="%s" fill="%s">'):format(k, COLOURS[k])
        for _, r in ipairs(rects) do out[#out + 1] = r end
        out[#out + 1] = "</g>"
      end
    end
    out[#out + 1] = "</g>"
    -- the fill, one group per shade
    out[#out + 1] = '<g id="fill">'
    local level, k = fill_levels(order)
    local by_level = {}
    for l = 1, k do by_level[l] = {} end
    runs(w, h, function(x, y) return level[(y - 1) * w + x] end, function(l, x, y, len)
      local list = by_level[l]
      list[#list + 1] = ('<rect x="%s" y="%s" width="%s" height="1"/>'):format(num(x - 1), num(y - 1), num(len))
    end)
    for l = 1, k do
      out[#out + 1] = ('<g fill="%s">'):format(shade(l, k))
      for _, r in ipairs(by_level[l]) do out[#out + 1] = r end
      out[#out + 1] = "</g>"
    end
    out[#out + 1] = "</g>"
    -- a field (penalty, danger, distances): red, more opaque where higher
    if field then
      out[#out + 1] = ('<g id="field" fill="%s">'):format(COLOURS.field)
      runs(w, h, function(x, y) return field[(y - 1) * w + x] end, function(l, x, y, len)
        out[#out + 1] = ('<rect x="%s" y="%s" width="%s" height="1" fill-opacity="%s"/>')
          :format(num(x - 1), num(y - 1), num(len), num(0.7 * l / FIELD_LEVELS))
      end)
      out[#out + 1] = "</g>"
    end
    -- cell borders, one path, when cells are big enough to show them
    if cell >= 6 then
      local d = {}
      for x = 0, w do d[#d + 1] = ("M%s 0V%s"):format(num(x), num(h)) end
      for y = 0, h do d[#d + 1] = ("M0 %sH%s"):format(num(y), num(w)) end
      out[#out + 1] = ('<path id="gridlines" d="%s" fill="none" stroke="%s" stroke-opacity="0.12" '
        .. 'stroke-width="0.04"/>'):format(table.concat(d), COLOURS.gridline)
    end
    -- the path through cell centres, then start and goal
    out[#out + 1] = '<g id="path">'
    if #path > 0 then
      local pts = {}
      for i, id in ipairs(path) do
        local x = (id - 1) % w + 1
        local y = (id - x) / w + 1
        pts[i] = num(x - 0.5) .. "," .. num(y - 0.5)
      end
      polyline(out, pts, max(0.3, 2 / cell))   -- at least 2 px wide on big maps
    end
    out[#out + 1] = "</g>"
    -- the points (smoothed or any-angle), a line through them over the path
    if #points > 0 then
      out[#out + 1] = '<g id="points">'
      local pts = {}
      for i, p in ipairs(points) do pts[i] = num(p[1] - 0.5) .. "," .. num(p[2] - 0.5) end
      out[#out + 1] = ('<polyline points="%s" fill="none" stroke="%s" stroke-width="%s" '
        .. 'stroke-linecap="round" stroke-linejoin="round"/>')
        :format(table.concat(pts, " "), COLOURS.points, num(max(0.2, 1.5 / cell)))
      out[#out + 1] = "</g>"
    end
    out[#out + 1] = '<g id="ends">'
    if #path > 0 then
      local s, g = path[1], path[#path]
      local sx, gx = (s - 1) % w + 1, (g - 1) % w + 1
      markers(out, sx - 0.5, (s - sx) / w + 0.5, gx - 0.5, (g - gx) / w + 0.5, max(0.36, 5 / cell),
        max(0.08, 1 / cell))
    end
    out[#out + 1] = "</g>"
    out[#out + 1] = "</g>"
  end)
end

-- Hex grids: hexagons of outer radius 1 (the picture's unit), laid out as
-- hex:to_world lays them with cell_size = 1 and the origin at the top-left
-- corner.  Returns the centre function and the picture's size in units.
local SQRT3 = sqrt(3)
local function hex_geometry(layout, w, h)
  local rows = layout == "odd_r" or layout == "even_r"
  local odd = layout == "odd_r" or layout == "odd_q"
  local function centre(x, y)
    local line = rows and y - 1 or x - 1
    local shove = ((line % 2 == 1) == odd) and 0.5 or 0
    if rows then return SQRT3 * (x - 1 + shove) + SQRT3 / 2, 1.5 * (y - 1) + 1 end
    return 1.5 * (x - 1) + 1, SQRT3 * (y - 1 + shove) + SQRT3 / 2
  end
  if rows then return centre, SQRT3 * (w + 0.5), 1.5 * h + 0.5, rows end
  return centre, 1.5 * w + 0.5, SQRT3 * (h + 0.5), rows
end

-- The outline of the hexagon at (cx, cy) as path data: pointy-top ("r"
-- layouts, corners at 30 + 60k degrees) or flat-top (0 + 60k).
local HEX_CORNERS = {}
for _, rows in ipairs({ true, false }) do
  local c = {}
  for k = 0, 5 do
    local a = math.rad(60 * k + (rows and 30 or 0))
    c[#c + 1] = { math.cos(a), math.sin(a) }
  end
  HEX_CORNERS[rows] = c
end
local function hexagon(rows, cx, cy)
  local c = HEX_CORNERS[rows]
  local d = { "M", num(cx + c[1][1]), " ", num(cy + c[1][2]) }
  for k = 2, 6 do d[#d + 1] = ("L%s %s"):format(num(cx + c[k][1]), num(cy + c[k][2])) end
  d[#d + 1] = "Z"
  return table.concat(d)
end

local function draw_hex(grid, opts, cell, title)
  local w, h = size_of(grid, grid.size)
  local count = w * h
  local order, msg = read_fill(opts, count, "cell")
  if not order then return nil, msg end
  local path
  path, msg = read_path(opts.path, count, "cell")
  if not path then return nil, msg end
  local layout = size_of(grid, grid.layout) -- still open after the __index calls above
  local centre, pw, ph, rows = hex_geometry(layout, w, h)
  if cell then
    if max(pw, ph) * cell + 24 == huge then
      return nil, ("cell too large for a %dx%d hex grid (the picture's size in pixels overflows), got %s")
        :format(w, h, describe(cell))
    end
    if 5 / cell == huge then
      return nil, ("cell too small (a 5-pixel marker would be inf cells wide), got %s"):format(describe(cell))
    end
  end
  cell = cell or min(12, max(0.5, 480 / max(pw, ph)))
  local out = {}
  return document(out, pw * cell, ph * cell, title, function(band)
    out[#out + 1] = ('<g id="map" transform="translate(0,%s) scale(%s)">'):format(num(band), scale_text(cell))
    -- cells: every hexagon open, then one path per kind
    out[#out + 1] = '<g id="cells">'
    local kinds = { open = {}, blocked = {}, dear = {}, cheap = {}, tagged = {} }
    local shapes = {}
    for y = 1, h do
      for x = 1, w do
        local cx, cy = centre(x, y)
        local d = hexagon(rows, cx, cy)
        local k
        if grid:is_blocked(x, y) then
          k = "blocked"
        else
          local c = grid:get_cost(x, y)
          if c > 1 then k = "dear" elseif c < 1 then k = "cheap" elseif grid:get_tag(x, y) then k = "tagged" end
        end
        shapes[(y - 1) * w + x] = d
        local list = kinds.open
        list[#list + 1] = d
        if k then list = kinds[k]; list[#list + 1] = d end
      end
    end
    out[#out + 1] = ('<path class="open" d="%s" fill="%s"/>'):format(table.concat(kinds.open), COLOURS.open)
    for _, k in ipairs({ "blocked", "dear", "cheap", "tagged" }) do
      if #kinds[k] > 0 then
        out[#out + 1] = ('<path class="%s" d="%s" fill="%s"/>'):format(k, table.concat(kinds[k]), COLOURS[k])
      end
    end
    out[#out + 1] = "</g>"
    -- the fill, one path per shade
    out[#out + 1] = '<g id="fill">'
    local level, k = fill_levels(order)
    local by_level = {}
    for l = 1, k do by_level[l] = {} end
    for id = 1, count do
      local l = level[id]
      if l then by_level[l][#by_level[l] + 1] = shapes[id] end
    end
    for l = 1, k do
      out[#out + 1] = ('<path d="%s" fill="%s"/>'):format(table.concat(by_level[l]), shade(l, k))
    end
    out[#out + 1] = "</g>"
    if cell >= 6 then
      out[#out + 1] = ('<path id="gridlines" d="%s" fill="none" stroke="%s" stroke-opacity="0.12" '
        .. 'stroke-width="0.04"/>'):format(table.concat(kinds.open), COLOURS.gridline)
    end
    -- the path through the centres, then start and goal
    out[#out + 1] = '<g id="path">'
    local function at(id)
      local x = (id - 1) % w + 1
      return centre(x, (id - x) / w + 1)
    end
    if #path > 0 then
      local pts = {}
      for i, id in ipairs(path) do
        local cx, cy = at(id)
        pts[i] = num(cx) .. "," .. num(cy)
      end
      polyline(out, pts, max(0.5, 2 / cell))
    end
    out[#out + 1] = "</g>"
    out[#out + 1] = '<g id="ends">'
    if #path > 0 then
      local sx, sy = at(path[1])
      local gx, gy = at(path[#path])
      markers(out, sx, sy, gx, gy, max(0.6, 5 / cell), max(0.12, 1 / cell))
    end
    out[#out + 1] = "</g>"
    out[#out + 1] = "</g>"
  end)
end

-- 2^e for any integer e in -2148..2046, as two factors (2^e alone overflows
-- or underflows past 2^1023 and 2^-1074).  v * a * b is v * 2^e, exactly,
-- unless the result itself overflows or underflows.
local function pow2(e)
  local half = floor(e / 2)
  return 2 ^ half, 2 ^ (e - half)
end

-- The e that brings s (finite, > 0) into 512..1024 as s * 2^e.
local function exponent_for(s)
  local e = 0
  while s >= 1024 do s, e = s / 2, e - 1 end
  while s < 512 do s, e = s * 2, e + 1 end
  return e
end

-- Graph coordinates are drawn as they are (a node at (3, 4) has cx="3"
-- cy="4") while they span 1 to 2^400 units: every number derived from them
-- is then finite, and 3 decimals resolve a thousandth of the picture.  A
-- graph outside that (nodes at 1e308 and -1e308, whose span overflows, or
-- all within 1e-320) is drawn in its own units instead: moved to the origin
-- and scaled by a power of two (exact) to span 512..1024, the scale folded
-- into the picture's transform.  Returns the new x0, x1, y0, y1 and the
-- exponent e (the scale is 2^e; 0 when nothing was done).
local NORMAL_SPAN = 2 ^ 400
local function normalize(xs, ys, n, x0, x1, y0, y1)
  local span = max(x1 - x0, y1 - y0)
  if span == 0 or (span >= 1 and span <= NORMAL_SPAN) then return x0, x1, y0, y1, 0 end
  local half = span == huge                -- then half the span is used: it cannot overflow
  local e
  if half then
    e = exponent_for(max(x1 * 0.5 - x0 * 0.5, y1 * 0.5 - y0 * 0.5)) - 1
  else
    e = exponent_for(span)
  end
  local a, b = pow2(e)
  -- halved coordinates need 2^(e + 1); a is at most 2^-500 there, so
  -- doubling it (not the coordinate) cannot overflow
  if half then a = a * 2 end
  local function at(v, v0)
    if half then return (v * 0.5 - v0 * 0.5) * a * b end
    return (v - v0) * a * b
  end
  local nx1, ny1 = at(x1, x0), at(y1, y0)
  for i = 1, n do xs[i], ys[i] = at(xs[i], x0), at(ys[i], y0) end
  return 0, nx1, 0, ny1, e
end

local function draw_graph(graph, opts, cell, title)
  local n = size_of(graph, graph.node_count)
  local order, msg = read_fill(opts, n, "node")
  if not order then return nil, msg end
  local path
  path, msg = read_path(opts.path, n, "node")
  if not path then return nil, msg end
  size_of(graph, graph.node_count)         -- still open after the __index calls above
  local xs, ys = {}, {}
  local x0, x1, y0, y1 = 0, 0, 0, 0
  for i = 1, n do
    local x, y = graph:position(i)
    xs[i], ys[i] = x, y
    if i == 1 or x < x0 then x0 = x end
    if i == 1 or x > x1 then x1 = x end
    if i == 1 or y < y0 then y0 = y end
    if i == 1 or y > y1 then y1 = y end
  end
  local unit_exp                           -- the drawing's unit is 2^-unit_exp graph units
  x0, x1, y0, y1, unit_exp = normalize(xs, ys, n, x0, x1, y0, y1)
  -- the typical distance between nodes sets the node size and the margin
  local ex, ey = x1 - x0, y1 - y0
  local spacing
  if ex > 0 and ey > 0 then
    spacing = sqrt(ex * ey / n)
  elseif ex > 0 or ey > 0 then
    spacing = max(ex, ey) / max(n - 1, 1)
  else
    spacing = 1
  end
  local margin, r = spacing, 0.22 * spacing
  local vw, vh = ex + 2 * margin, ey + 2 * margin
  local scale = 480 / max(vw, vh)
  if cell then
    -- cell is per graph unit
    local a, b = pow2(-unit_exp)
    scale = cell * a * b
    if max(vw, vh) * scale + 24 == huge then
      return nil, ("cell too large for this graph (the picture's size in pixels overflows), got %s")
        :format(describe(cell))
    end
  end
  local out = {}
  return document(out, vw * scale, vh * scale, title, function(band)
    out[#out + 1] = ('<g id="map" transform="translate(0,%s) scale(%s) translate(%s,%s)">')
      :format(num(band), scale_text(scale), num(margin - x0), num(margin - y0))
    out[#out + 1] = '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="5" '
      .. 'markerHeight="5" orient="auto"><path d="M0 0L10 5L0 10z" fill="' .. COLOURS.edge .. '"/></marker></defs>'
    -- edges: one segment per pair of nodes, in order of first edge id
    local dir, done = {}, {}
    local m = graph:edge_count()
    local from, to = {}, {}
    for e = 1, m do
      local a, b = graph:edge(e)
      from[e], to[e] = a, b
      dir[a] = dir[a] or {}
      dir[a][b] = true
    end
    local both, one = {}, {}
    for e = 1, m do
      local a, b = from[e], to[e]
      local lo, hi = min(a, b), max(a, b)
      if a ~= b and not (done[lo] and done[lo][hi]) then
        done[lo] = done[lo] or {}
        done[lo][hi] = true
        if dir[b] and dir[b][a] then
          both[#both + 1] = ("M%s %sL%s %s"):format(num(xs[lo]), num(ys[lo]), num(xs[hi]), num(ys[hi]))
        else
          -- stop the arrow at the target's circle
          local dx, dy = xs[b] - xs[a], ys[b] - ys[a]
          local len = sqrt(dx * dx + dy * dy)
          local cut = len > 2 * r and r / len or 0
          one[#one + 1] = ('<line x1="%s" y1="%s" x2="%s" y2="%s"/>'):format(num(xs[a]), num(ys[a]),
            num(xs[b] - dx * cut), num(ys[b] - dy * cut))
        end
      end
    end
    local ew = 0.06 * spacing
    if #both > 0 then
      out[#out + 1] = ('<path id="edges-both" d="%s" fill="none" stroke="%s" stroke-width="%s"/>')
        :format(table.concat(both), COLOURS.edge, num(ew))
    end
    if #one > 0 then
      out[#out + 1] = ('<g id="edges-one-way" stroke="%s" stroke-width="%s" marker-end="url(#arrow)">')
        :format(COLOURS.edge, num(ew))
      for _, l in ipairs(one) do out[#out + 1] = l end
      out[#out + 1] = "</g>"
    end
    -- the path, under the nodes
    out[#out + 1] = '<g id="path">'
    if #path > 0 then
      local pts = {}
      for i, id in ipairs(path) do pts[i] = num(xs[id]) .. "," .. num(ys[id]) end
      polyline(out, pts, 0.3 * spacing)
    end
    out[#out + 1] = "</g>"
    -- nodes: unvisited white, disabled dark, visited by shade
    local level, k = fill_levels(order)
    out[#out + 1] = ('<g id="nodes" fill="%s" stroke="%s" stroke-width="%s">')
      :format(COLOURS.node, COLOURS.node_stroke, num(0.04 * spacing))
    for i = 1, n do
      local fill = ""
      if level[i] then
        fill = (' fill="%s"'):format(shade(level[i], k))
      elseif not graph:is_enabled(i) then
        fill = (' fill="%s"'):format(COLOURS.disabled)
      end
      out[#out + 1] = ('<circle cx="%s" cy="%s" r="%s"%s/>'):format(num(xs[i]), num(ys[i]), num(r), fill)
    end
    out[#out + 1] = "</g>"
    out[#out + 1] = '<g id="ends">'
    if #path > 0 then
      local s, g = path[1], path[#path]
      markers(out, xs[s], ys[s], xs[g], ys[g], 0.3 * spacing, 0.05 * spacing)
    end
    out[#out + 1] = "</g>"
    out[#out + 1] = "</g>"
  end)
end

--- svg(grid_or_graph [, opts]) -> string
-- Draws a grid (cells: blocked dark, open light, cost > 1 sand, cost < 1
-- green, tagged blue), a hex grid (the same colours on hexagons; `cell` is
-- then pixels per hexagon radius) or a graph (nodes at their x, y positions, z ignored,
-- y down as on grids, scaled to fit; edges joined both ways as plain lines,
-- one-way edges with an arrow, self-loops not drawn; disabled nodes dark),
-- with, from `opts`:
--   path    a find_path result (its `nodes`) or a list of ids: a polyline
--           through cell centres / node positions, start and goal markers
--   visited the ids of expanded cells/nodes (find_path's `visited`), or
--   trace   find_path's `trace`: the fill, shaded by first expansion, light
--           (early) to dark (late), in up to 16 shades.  When both are
--           given, `visited` is drawn.
--   cell    pixels per grid cell (default: up to 24, the map at most 480
--           pixels wide) or per graph unit (default: the graph fits 480);
--           refused when the picture's size would overflow, or (grids)
--           when 5 / cell would
--   points  (grids) a list of {x, y} cell coordinates, drawn as a blue line
--           over the path; default: the path's own `points` (smooth,
--           any_angle)
--   field   (grids) an astar.Field of the grid's size: cells above 0 tinted
--           red, more opaque where higher (inf: the darkest)
--   title   a caption above the picture (and the SVG <title>); bytes that
--           are not UTF-8 are written as U+FFFD
-- Every number written is finite: graphs of extreme extent are rescaled
-- (see normalize).
function M.svg(what, opts)
  local kind = typename(what)
  if kind ~= "astar.Grid" and kind ~= "astar.Hex" and kind ~= "astar.Graph" then
    bad(1, "astar.Grid, astar.Hex or astar.Graph expected, got " .. kind)
  end
  if opts == nil then opts = {} end
  if type(opts) ~= "table" then bad(2, "table expected, got " .. typename(opts)) end
  for k in next, opts do
    if not options[k] then bad(2, "unknown option " .. describe(k)) end
  end
  -- each option read once, into a plain table (a __index function could
  -- answer differently each time)
  local cell, title = opts.cell, opts.title
  opts = { path = opts.path, visited = opts.visited, trace = opts.trace, points = opts.points,
    field = opts.field }
  -- a path with points (smooth, any_angle) draws them unless points is given
  if opts.points == nil and type(opts.path) == "table" then opts.points = opts.path.points end
  if kind ~= "astar.Grid" and (opts.points ~= nil or opts.field ~= nil) then
    bad(2, ("%s is only for grids"):format(opts.points ~= nil and "points" or "field"))
  end
  if cell ~= nil and (type(cell) ~= "number" or not (cell > 0 and cell < huge)) then
    bad(2, "cell must be a finite number > 0, got " .. describe(cell))
  end
  if title ~= nil and type(title) ~= "string" then
    bad(2, "title must be a string, got " .. describe(title))
  end
  local text, msg
  if kind == "astar.Grid" then
    text, msg = draw_grid(what, opts, cell, title)
  elseif kind == "astar.Hex" then
    text, msg = draw_hex(what, opts, cell, title)
  else
    text, msg = draw_graph(what, opts, cell, title)
  end
  if not text then bad(2, msg) end
  return text
end

return M
