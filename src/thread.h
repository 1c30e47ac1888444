/*
** thread.h -- the one place the core meets OS threads (astar.batch runs
** its searches on them).  POSIX threads, Win32 threads under _WIN32, or,
** with ASTAR_NO_THREADS defined (a platform with neither), everything on
** the calling thread.  No Lua here.
*/
#ifndef ASTAR_THREAD_H
#define ASTAR_THREAD_H

#include <stddef.h>

/* Hidden, as the core's other functions (see astar.h, "Symbols"): the Lua
** module exports none of them. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(_WIN32) && !defined(__CYGWIN__)
#define ASTAR_THREAD_HIDDEN 1
#pragma GCC visibility push(hidden)
#endif

/* The number of processors online (>= 1; 1 when the platform cannot tell
** or has no threads). */
int astar_cpu_count(void);

/* CPU seconds the calling thread has used (the process's where the
** platform cannot tell per thread). */
double astar_thread_cpu(void);

/* Monotonic wall-clock seconds (CLOCK_MONOTONIC; QueryPerformanceCounter
** on Windows; the process's CPU clock where neither exists), from an
** arbitrary origin: what a query's time budget is measured on. */
double astar_monotonic(void);

/* A worker: called once per thread with its own argument. */
typedef void (*astar_worker_fn)(void *arg);

/* Runs fn(args[0]) .. fn(args[n - 1]) at once, fn(args[0]) on the calling
** thread and the others on new threads, and returns when all have
** returned.  A thread that cannot be created has its worker run on the
** calling thread afterwards (slower, never wrong).  Returns how many ran
** on threads of their own (0 .. n - 1). */
int astar_run_workers(int n, astar_worker_fn fn, void **args);

/* A mutex for the workers' shared counter; astar_mutex_new returns NULL
** when out of memory. */
typedef struct astar_mutex astar_mutex;
astar_mutex *astar_mutex_new(void);
void astar_mutex_free(astar_mutex *m);
void astar_mutex_lock(astar_mutex *m);
void astar_mutex_unlock(astar_mutex *m);

#ifdef ASTAR_THREAD_HIDDEN
#pragma GCC visibility pop
#endif

#endif
