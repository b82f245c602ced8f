/*
 * reefbench's file-time shim: file times on the task's world clock inside the desktop
 * sandbox. Preloaded before Debian's libfaketime (LD_PRELOAD="this.so libfaketime.so.1"),
 * built by reefbench/envs/desktop/filetime.py.
 *
 * Why: libfaketime 0.9.10 (Debian bookworm) fakes the clock but not what programs built
 * against glibc 2.33+ call to read file times (stat64, fstatat64, statx: ls, stat, date -r,
 * Python's os.stat, GLib and so Thunar), so a file written during the episode showed the
 * host's day (the kernel stamps it) beside the world's "now". Its own stat/lstat/fstat
 * wrappers move every time, a system file's too; the sandbox turns them off (NO_FAKE_STAT)
 * and this shim is the one place file times are mapped.
 *
 * The rule, for every timestamp a wrapped call returns (atime, mtime, ctime, statx btime):
 *
 *   offset = real now - world now, in whole seconds: the real clock read by the raw
 *            syscall (libfaketime cannot see it), the world's by clock_gettime, which
 *            resolves to libfaketime's (so its offset file, rewritten by the harness, is
 *            the one source of truth; where libfaketime is inactive, as in the window
 *            manager it skips, the offset is 0 and nothing moves);
 *   since  = REEF_FILETIME_SINCE, the host time (POSIX seconds) the episode began;
 *   a time t with offset > 0 (the world is behind the host) and t >= since was stamped
 *   by the kernel's real clock during the episode: it is shown as t - offset. Every other
 *   time is shown as it is: files the harness and a task's setup wrote carry world times
 *   set explicitly (all before since, as the world is behind), system files are older.
 *
 * Setting times needs no wrapper: `touch f` passes UTIME_NOW, which libfaketime turns into
 * the world's now (before since: shown as stored); `touch -d DATE` and `cp -p` pass
 * explicit times, which are world times already (shown as stored). A world ahead of the
 * host moves nothing.
 *
 * Wrapped (glibc 2.36, x86-64): stat, lstat, fstat, fstatat and their *64 forms, statx,
 * and the pre-2.33 __xstat, __lxstat, __fxstat, __fxstatat and their *64 forms.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Gone from glibc's headers in 2.33; still exported for older binaries. */
int __xstat(int ver, const char *path, struct stat *buf);
int __lxstat(int ver, const char *path, struct stat *buf);
int __fxstat(int ver, int fd, struct stat *buf);
int __fxstatat(int ver, int dirfd, const char *path, struct stat *buf, int flags);
int __xstat64(int ver, const char *path, struct stat64 *buf);
int __lxstat64(int ver, const char *path, struct stat64 *buf);
int __fxstat64(int ver, int fd, struct stat64 *buf);
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *buf, int flags);

#define NS_PER_S 1000000000LL

/* Set while this thread is inside the shim's own clock reads, so a stat that libfaketime
 * makes on the way is passed through untouched. */
static __thread int busy;

struct shift {
    int64_t offset; /* seconds to subtract; 0: move nothing */
    int64_t since;
};

static int64_t episode_since(void)
{
    static int64_t cached = -2; /* -2: not read yet; -1: not set */
    int64_t since = __atomic_load_n(&cached, __ATOMIC_RELAXED);
    if (since == -2) {
        const char *text = getenv("REEF_FILETIME_SINCE");
        char *end = NULL;
        long long value = text ? strtoll(text, &end, 10) : -1;
        since = (text && *text && end && *end == '\0' && value >= 0) ? value : -1;
        __atomic_store_n(&cached, since, __ATOMIC_RELAXED);
    }
    return since;
}

static struct shift current_shift(void)
{
    struct shift s = {0, 0};
    int64_t since = episode_since();
    if (since < 0 || busy)
        return s;
    int saved = errno;
    busy = 1;
    struct timespec real, world;
    if (syscall(SYS_clock_gettime, CLOCK_REALTIME, &real) == 0
        && clock_gettime(CLOCK_REALTIME, &world) == 0) {
        int64_t ns = (int64_t)(real.tv_sec - world.tv_sec) * NS_PER_S
                     + (real.tv_nsec - world.tv_nsec);
        /* The harness writes whole seconds: rounding drops the two reads' jitter, so the
         * same file shows the same time at every call. */
        int64_t seconds = ns > 0 ? (ns + NS_PER_S / 2) / NS_PER_S : 0;
        if (seconds > 0) {
            s.offset = seconds;
            s.since = since;
        }
    }
    busy = 0;
    errno = saved;
    return s;
}

#define SHIFT_SECONDS(s, field)                              \
    do {                                                     \
        if ((s).offset > 0 && (int64_t)(field) >= (s).since) \
            (field) -= (s).offset;                           \
    } while (0)

#define SHIFT_STAT(buf)                                \
    do {                                               \
        struct shift s_ = current_shift();             \
        SHIFT_SECONDS(s_, (buf)->st_atim.tv_sec);      \
        SHIFT_SECONDS(s_, (buf)->st_mtim.tv_sec);      \
        SHIFT_SECONDS(s_, (buf)->st_ctim.tv_sec);      \
    } while (0)

static void *next_symbol(const char *name)
{
    void *found = dlsym(RTLD_NEXT, name);
    if (found == NULL)
        found = dlvsym(RTLD_NEXT, name, "GLIBC_2.2.5");
    return found;
}

/* The next definition of `name` (libfaketime's or glibc's), looked up once. */
#define NEXT(name)                                                          \
    static __typeof__(&name) next_;                                         \
    __typeof__(&name) next = __atomic_load_n(&next_, __ATOMIC_ACQUIRE);     \
    if (next == NULL) {                                                     \
        next = (__typeof__(&name))next_symbol(#name);                       \
        if (next == NULL) {                                                 \
            errno = ENOSYS;                                                 \
            return -1;                                                      \
        }                                                                   \
        __atomic_store_n(&next_, next, __ATOMIC_RELEASE);                   \
    }

#define WRAP(name, buf, ...)                  \
    {                                         \
        NEXT(name);                           \
        int result = next(__VA_ARGS__);       \
        if (result == 0)                      \
            SHIFT_STAT(buf);                  \
        return result;                        \
    }

int stat(const char *path, struct stat *buf) WRAP(stat, buf, path, buf)
int lstat(const char *path, struct stat *buf) WRAP(lstat, buf, path, buf)
int fstat(int fd, struct stat *buf) WRAP(fstat, buf, fd, buf)
int fstatat(int dirfd, const char *path, struct stat *buf, int flags)
    WRAP(fstatat, buf, dirfd, path, buf, flags)
int stat64(const char *path, struct stat64 *buf) WRAP(stat64, buf, path, buf)
int lstat64(const char *path, struct stat64 *buf) WRAP(lstat64, buf, path, buf)
int fstat64(int fd, struct stat64 *buf) WRAP(fstat64, buf, fd, buf)
int fstatat64(int dirfd, const char *path, struct stat64 *buf, int flags)
    WRAP(fstatat64, buf, dirfd, path, buf, flags)
int __xstat(int ver, const char *path, struct stat *buf) WRAP(__xstat, buf, ver, path, buf)
int __lxstat(int ver, const char *path, struct stat *buf) WRAP(__lxstat, buf, ver, path, buf)
int __fxstat(int ver, int fd, struct stat *buf) WRAP(__fxstat, buf, ver, fd, buf)
int __fxstatat(int ver, int dirfd, const char *path, struct stat *buf, int flags)
    WRAP(__fxstatat, buf, ver, dirfd, path, buf, flags)
int __xstat64(int ver, const char *path, struct stat64 *buf)
    WRAP(__xstat64, buf, ver, path, buf)
int __lxstat64(int ver, const char *path, struct stat64 *buf)
    WRAP(__lxstat64, buf, ver, path, buf)
int __fxstat64(int ver, int fd, struct stat64 *buf) WRAP(__fxstat64, buf, ver, fd, buf)
int __fxstatat64(int ver, int dirfd, const char *path, struct stat64 *buf, int flags)
    WRAP(__fxstatat64, buf, ver, dirfd, path, buf, flags)

int statx(int dirfd, const char *path, int flags, unsigned int mask, struct statx *buf)
{
    NEXT(statx);
    int result = next(dirfd, path, flags, mask, buf);
    if (result == 0) {
        struct shift s = current_shift();
        if (buf->stx_mask & STATX_ATIME)
            SHIFT_SECONDS(s, buf->stx_atime.tv_sec);
        if (buf->stx_mask & STATX_MTIME)
            SHIFT_SECONDS(s, buf->stx_mtime.tv_sec);
        if (buf->stx_mask & STATX_CTIME)
            SHIFT_SECONDS(s, buf->stx_ctime.tv_sec);
        if (buf->stx_mask & STATX_BTIME)
            SHIFT_SECONDS(s, buf->stx_btime.tv_sec);
    }
    return result;
}
