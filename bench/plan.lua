-- bench/plan.lua -- which Moving AI maps and rows the benchmarks run, shared
-- by bench/run.lua and bench/ab.lua (dofile("bench/plan.lua")).
--   rows:     { family, map, stride }: every stride-th scenario row, so
--             every bucket is covered
--   families: the order of the tables
return {
  rows = {
    { "game", "arena", 1 }, { "game", "den312d", 1 }, { "game", "lak303d", 4 },
    { "game", "brc202d", 16 }, { "game", "AR0011SR", 12 }, { "game", "CatwalkAlley", 16 },
    { "street", "Berlin_0_256", 4 }, { "street", "Boston_0_512", 10 },
    { "maze", "maze512-1-0", 80 },
    { "random", "random512-10-0", 10 }, { "random", "random512-20-0", 10 },
    { "rooms", "8room_000", 12 },
  },
  families = { "game", "street", "maze", "random", "rooms" },
}
