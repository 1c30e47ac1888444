-- luacheck configuration (Debian: lua-check).  The Lua code runs on 5.1,
-- 5.2, 5.3, 5.4 and LuaJIT, so the union of their standard libraries.
std = "max"
max_line_length = 120
exclude_files = { "build/**" }

-- specs hold tables of { call, exact error message } that read best one per
-- line: a little more room there
files["spec/"] = { std = "+busted", max_line_length = 140 }
-- examples/love/ is a LÖVE game: it sets love.load, love.draw ... on the
-- `love` global LÖVE provides
files["examples/love/"] = { globals = { "love" } }
