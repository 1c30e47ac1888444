/*
** thread.c -- OS threads behind thread.h: pthreads (POSIX), Win32 threads
** (_WIN32), or a serial fallback (ASTAR_NO_THREADS).  Memory here comes
** from malloc: these objects live only for one batch, on threads that must
** not call back into Lua's allocator.
*/
#if !defined(_WIN32) && !defined(_POSIX_C_SOURCE)
#define _POSIX_C_SOURCE 200809L /* sysconf, pthreads under -std=c99 */
#endif

#include <stdlib.h>
#include <time.h>

#include "thread.h"

#if defined(ASTAR_NO_THREADS)

int astar_cpu_count(void) { return 1; }

double astar_thread_cpu(void) { return (double)clock() / CLOCKS_PER_SEC; }

int astar_run_workers(int n, astar_worker_fn fn, void **args) {
  int i;
  for (i = 0; i < n; i++) fn(args[i]);
  return 0;
}

struct astar_mutex {
  int unused;
};
astar_mutex *astar_mutex_new(void) { return (astar_mutex *)malloc(sizeof(astar_mutex)); }
void astar_mutex_free(astar_mutex *m) { free(m); }
void astar_mutex_lock(astar_mutex *m) { (void)m; }
void astar_mutex_unlock(astar_mutex *m) { (void)m; }

#elif defined(_WIN32)

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN /* threads only: no GDI, RPC, sockets */
#endif
#ifndef NOMINMAX
#define NOMINMAX /* no min/max macros over later code */
#endif
#include <windows.h>

int astar_cpu_count(void) {
  SYSTEM_INFO si;
  GetSystemInfo(&si);
  return si.dwNumberOfProcessors > 0 ? (int)si.dwNumberOfProcessors : 1;
}

double astar_thread_cpu(void) {
  FILETIME c, e, k, u;
  ULARGE_INTEGER a, b;
  if (!GetThreadTimes(GetCurrentThread(), &c, &e, &k, &u)) return (double)clock() / CLOCKS_PER_SEC;
  a.LowPart = k.dwLowDateTime;
  a.HighPart = k.dwHighDateTime;
  b.LowPart = u.dwLowDateTime;
  b.HighPart = u.dwHighDateTime;
  return (double)(a.QuadPart + b.QuadPart) * 1e-7; /* 100 ns units */
}

typedef struct worker {
  astar_worker_fn fn;
  void *arg;
} worker;

static DWORD WINAPI worker_main(LPVOID p) {
  worker *w = (worker *)p;
  w->fn(w->arg);
  return 0;
}

int astar_run_workers(int n, astar_worker_fn fn, void **args) {
  HANDLE *h = n > 1 ? (HANDLE *)calloc((size_t)n, sizeof(HANDLE)) : NULL;
  worker *w = n > 1 ? (worker *)calloc((size_t)n, sizeof(worker)) : NULL;
  int i, started = 0;
  for (i = 1; i < n && h && w; i++) {
    w[i].fn = fn;
    w[i].arg = args[i];
    h[i] = CreateThread(NULL, 0, worker_main, &w[i], 0, NULL);
    if (h[i]) started++;
  }
  fn(args[0]);
  for (i = 1; i < n; i++) {
    if (h && w && h[i]) {
      WaitForSingleObject(h[i], INFINITE);
      CloseHandle(h[i]);
    } else {
      fn(args[i]); /* no thread for it: here, now */
    }
  }
  free(h);
  free(w);
  return started;
}

struct astar_mutex {
  CRITICAL_SECTION cs;
};
astar_mutex *astar_mutex_new(void) {
  astar_mutex *m = (astar_mutex *)malloc(sizeof *m);
  if (m) InitializeCriticalSection(&m->cs);
  return m;
}
void astar_mutex_free(astar_mutex *m) {
  if (m == NULL) return;
  DeleteCriticalSection(&m->cs);
  free(m);
}
void astar_mutex_lock(astar_mutex *m) { EnterCriticalSection(&m->cs); }
void astar_mutex_unlock(astar_mutex *m) { LeaveCriticalSection(&m->cs); }

#else /* POSIX */

#include <pthread.h>
#include <unistd.h>

int astar_cpu_count(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)(n > 1024 ? 1024 : n) : 1;
}

double astar_thread_cpu(void) {
#if defined(CLOCK_THREAD_CPUTIME_ID)
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0) return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
#endif
  return (double)clock() / CLOCKS_PER_SEC;
}

typedef struct worker {
  astar_worker_fn fn;
  void *arg;
  pthread_t id;
  int ok;
} worker;

static void *worker_main(void *p) {
  worker *w = (worker *)p;
  w->fn(w->arg);
  return NULL;
}

int astar_run_workers(int n, astar_worker_fn fn, void **args) {
  worker *w = n > 1 ? (worker *)calloc((size_t)n, sizeof(worker)) : NULL;
  int i, started = 0;
  for (i = 1; i < n && w; i++) {
    w[i].fn = fn;
    w[i].arg = args[i];
    w[i].ok = pthread_create(&w[i].id, NULL, worker_main, &w[i]) == 0;
    started += w[i].ok;
  }
  fn(args[0]);
  for (i = 1; i < n; i++) {
    if (w && w[i].ok) pthread_join(w[i].id, NULL);
    else fn(args[i]); /* no thread for it: here, now */
  }
  free(w);
  return started;
}

struct astar_mutex {
  pthread_mutex_t mu;
};
astar_mutex *astar_mutex_new(void) {
  astar_mutex *m = (astar_mutex *)malloc(sizeof *m);
  if (m && pthread_mutex_init(&m->mu, NULL) != 0) {
    free(m);
    return NULL;
  }
  return m;
}
void astar_mutex_free(astar_mutex *m) {
  if (m == NULL) return;
  pthread_mutex_destroy(&m->mu);
  free(m);
}
void astar_mutex_lock(astar_mutex *m) { pthread_mutex_lock(&m->mu); }
void astar_mutex_unlock(astar_mutex *m) { pthread_mutex_unlock(&m->mu); }

#endif

/* The clock of time budgets (query steps): wall time that never goes
** back, in seconds from an arbitrary origin. */
#if defined(_WIN32) && !defined(ASTAR_NO_THREADS)
double astar_monotonic(void) {
  LARGE_INTEGER f, c;
  QueryPerformanceFrequency(&f);
  QueryPerformanceCounter(&c);
  return (double)c.QuadPart / (double)f.QuadPart;
}
#elif defined(CLOCK_MONOTONIC)
double astar_monotonic(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0) return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
  return (double)clock() / CLOCKS_PER_SEC;
}
#else
double astar_monotonic(void) { return (double)clock() / CLOCKS_PER_SEC; }
#endif
