/* SPDX-License-Identifier: MIT */
/*
 * dedup_dir.c - the dedup job's DIR, replaced as a whole in one step
 * (docs/contract.md §14 `dedup`, §12), for wirejson dedup and
 * python -m wirejson.dedup alike.
 *
 * The new DIR is built in a staging folder beside DIR's target (a symlinked
 * DIR is resolved first, so the two are on one file system), named
 * BASE.wirejson-tmp-XXXXXX.  At the end one renameat2(RENAME_EXCHANGE)
 * swaps it with the old DIR (a plain rename when there is no DIR), and the
 * old content, now under the staging name, is removed.
 *
 * A run holds an flock on its staging folder for its whole life; the kernel
 * drops it when the process dies, however it dies.  A run starts by
 * removing every BASE.wirejson-tmp-* beside DIR whose lock it can take:
 * those of dead runs.  Signals are the host's: it calls
 * wk_dedup_dir_remove_stage on the way out.
 */
#define _GNU_SOURCE /* renameat2, RENAME_EXCHANGE */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wirejson_kit.h"

#define STAGE_MARK ".wirejson-tmp-"

static const char *const outputs[] = {"unique", "counts", "summary.json"};

/* Sets d->error (keeping errno); returns -1. */
static int fail(wk_dedup_dir *d, const char *fmt, ...)
{
    int e = errno, n;
    va_list ap;
    free(d->error);
    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    d->error = n < 0 ? NULL : malloc((size_t)n + 1);
    if (d->error) {
        va_start(ap, fmt);
        vsnprintf(d->error, (size_t)n + 1, fmt, ap);
        va_end(ap);
    }
    errno = e;
    return -1;
}

static int out_of_memory(wk_dedup_dir *d)
{
    errno = ENOMEM;
    return fail(d, "out of memory");
}

static char *path_join(const char *a, const char *b)
{
    size_t na = strlen(a), nb = strlen(b);
    char *p = malloc(na + nb + 2);
    if (p) {
        memcpy(p, a, na);
        p[na] = '/';
        memcpy(p + na + 1, b, nb + 1);
    }
    return p;
}

static int remove_one(const char *path, const struct stat *sb, int flag,
                      struct FTW *ftw)
{
    (void)sb, (void)flag, (void)ftw;
    remove(path);
    return 0;
}

static void remove_tree(const char *path)
{
    nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int mkdirs(char *path)
{
    char *p;
    for (p = path + 1; *p; p++)
        if (*p == '/') {
            *p = 0;
            if (mkdir(path, 0777) && errno != EEXIST) {
                *p = '/';
                return -1;
            }
            *p = '/';
        }
    return mkdir(path, 0777) && errno != EEXIST ? -1 : 0;
}

/* DIR's target, absolute: its folder (a symlink resolved) when there is
 * one, else DIR under the working directory, trailing slashes dropped. */
static char *target_of(const char *out, int exists)
{
    size_t n = strlen(out);
    char *cwd, *t;
    if (exists)
        return realpath(out, NULL);
    while (n > 1 && out[n - 1] == '/')
        n--;
    if (out[0] == '/')
        return strndup(out, n);
    if (!(cwd = getcwd(NULL, 0)))
        return NULL;
    t = malloc(strlen(cwd) + n + 2);
    if (t)
        sprintf(t, "%s/%.*s", strcmp(cwd, "/") ? cwd : "", (int)n, out);
    free(cwd);
    return t;
}

/* DIR is replaced as a whole: refuse one holding anything dedup did not
 * write (the first such name in byte order), rather than remove it. */
static int check_contents(wk_dedup_dir *d)
{
    DIR *dir;
    struct dirent *de;
    char *stray = NULL;
    int st = 0;
    if (!d->exists)
        return 0;
    if (!(dir = opendir(d->target)))
        return fail(d, "cannot read --out %s: %s", d->out, strerror(errno));
    while ((de = readdir(dir))) {
        size_t k;
        int ours = !strcmp(de->d_name, ".") || !strcmp(de->d_name, "..");
        for (k = 0; k < 3; k++)
            ours |= !strcmp(de->d_name, outputs[k]);
        if (!ours && (!stray || strcmp(de->d_name, stray) < 0)) {
            free(stray);
            if (!(stray = strdup(de->d_name))) {
                st = out_of_memory(d);
                break;
            }
        }
    }
    closedir(dir);
    if (stray && !st)
        st = fail(d, "--out %s holds %s, which dedup did not write; DIR is "
                  "replaced as a whole, so give a new or empty folder or an "
                  "earlier dedup output", d->out, stray);
    free(stray);
    return st;
}

int wk_dedup_dir_open(wk_dedup_dir *d, const char *out)
{
    struct stat sb;
    char *slash;
    memset(d, 0, sizeof *d);
    d->lock_fd = -1;
    if (!(d->out = strdup(out)))
        return out_of_memory(d);
    if (stat(out, &sb) == 0) {
        d->exists = 1;
        d->mode = sb.st_mode & 07777;
    } else {
        /* Read here, before the host starts threads: umask is the
         * process's. */
        mode_t mask = umask(0);
        umask(mask);
        d->mode = 0777 & ~mask;
    }
    if (!(d->target = target_of(out, d->exists)))
        return fail(d, "--out %s: %s", out, strerror(errno));
    slash = strrchr(d->target, '/');
    d->base = strdup(slash + 1);
    d->parent = strndup(d->target, slash == d->target
                                       ? 1 : (size_t)(slash - d->target));
    if (!d->parent || !d->base)
        return out_of_memory(d);
    return check_contents(d);
}

/* Removes the staging folders of dead runs beside DIR: those named
 * BASE.wirejson-tmp-* whose lock can be taken. */
static void remove_dead_stages(const wk_dedup_dir *d)
{
    DIR *dir = opendir(d->parent);
    struct dirent *de;
    size_t n = strlen(d->base);
    if (!dir)
        return;
    while ((de = readdir(dir))) {
        char *path;
        int fd;
        if (strncmp(de->d_name, d->base, n) ||
            strncmp(de->d_name + n, STAGE_MARK, strlen(STAGE_MARK)))
            continue;
        path = path_join(d->parent, de->d_name);
        fd = path ? open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW) : -1;
        if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
            remove_tree(path);
        if (fd >= 0)
            close(fd);
        free(path);
    }
    closedir(dir);
}

/* A new staging folder beside DIR, locked (d->stage, d->lock_fd). */
static int make_stage(wk_dedup_dir *d)
{
    char *tmpl = malloc(strlen(d->parent) + strlen(d->base) + 40);
    struct stat a, b;
    if (!tmpl)
        return out_of_memory(d);
    if (!d->exists && stat(d->parent, &a) && mkdirs(d->parent)) {
        free(tmpl);
        return fail(d, "cannot make --out %s: %s: %s", d->out, d->parent,
                    strerror(errno));
    }
    for (;;) {
        sprintf(tmpl, "%s/%s" STAGE_MARK "XXXXXX",
                strcmp(d->parent, "/") ? d->parent : "", d->base);
        if (!mkdtemp(tmpl)) {
            free(tmpl);
            return fail(d, "cannot replace --out %s: cannot make a staging "
                        "folder in %s: %s (DIR is replaced in one step by a "
                        "folder built beside it)", d->out, d->parent,
                        strerror(errno));
        }
        d->lock_fd = open(tmpl, O_RDONLY | O_DIRECTORY);
        /* Locked, and still the folder made: another run's clean-up may
         * have removed it between the mkdtemp and the lock. */
        if (d->lock_fd >= 0 && flock(d->lock_fd, LOCK_EX) == 0 &&
            fstat(d->lock_fd, &a) == 0 && a.st_nlink > 0 &&
            stat(tmpl, &b) == 0 && a.st_ino == b.st_ino && a.st_dev == b.st_dev)
            break;
        if (d->lock_fd >= 0)
            close(d->lock_fd);
        d->lock_fd = -1;
    }
    d->stage = tmpl;
    return 0;
}

/* Whether DIR's file system can swap two folders in one step, tried on two
 * empty folders in the staging folder. */
static int check_exchange(wk_dedup_dir *d)
{
    char *a = path_join(d->stage, ".a"), *b = path_join(d->stage, ".b");
    int st = 0;
    if (!a || !b || mkdir(a, 0700) || mkdir(b, 0700) ||
        renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE))
        st = fail(d, "cannot replace --out %s in one step: the file system "
                  "of %s cannot swap two folders (renameat2 RENAME_EXCHANGE: "
                  "%s); remove DIR first or give a new one", d->out, d->parent,
                  strerror(errno));
    if (a)
        rmdir(a);
    if (b)
        rmdir(b);
    free(a);
    free(b);
    return st;
}

int wk_dedup_dir_stage(wk_dedup_dir *d)
{
    remove_dead_stages(d);
    if (make_stage(d) || (d->exists && check_exchange(d))) {
        wk_dedup_dir_remove_stage(d);
        return -1;
    }
    return 0;
}

int wk_dedup_dir_install(wk_dedup_dir *d)
{
    int bad;
    if (!d->stage) {
        errno = EINVAL;
        return fail(d, "wk_dedup_dir_install: no staging folder for --out %s",
                    d->out);
    }
    bad = fchmod(d->lock_fd, d->mode) ||
          (d->exists ? renameat2(AT_FDCWD, d->stage, AT_FDCWD, d->target,
                                 RENAME_EXCHANGE)
                     : rename(d->stage, d->target));
    if (bad)
        return fail(d, "cannot move the output into %s: %s", d->out,
                    strerror(errno));
    return 0;
}

void wk_dedup_dir_remove_stage(wk_dedup_dir *d)
{
    char *path = d->stage, *gone;
    size_t n;
    if (!path)
        return;
    /* First renamed out of the way, so the run's own path names no longer
     * reach it and nothing new is made in it while it is emptied (the new
     * name keeps the mark, for the next run to find). */
    n = strlen(path);
    if ((gone = malloc(n + 6))) {
        memcpy(gone, path, n);
        memcpy(gone + n, ".gone", 6);
        if (rename(path, gone) == 0)
            path = gone;
    }
    remove_tree(path);
    free(gone);
    free(d->stage);
    d->stage = NULL;
    if (d->lock_fd >= 0)
        close(d->lock_fd);
    d->lock_fd = -1;
}

void wk_dedup_dir_free(wk_dedup_dir *d)
{
    wk_dedup_dir_remove_stage(d);
    free(d->out);
    free(d->target);
    free(d->parent);
    free(d->base);
    free(d->error);
    memset(d, 0, sizeof *d);
    d->lock_fd = -1;
}
