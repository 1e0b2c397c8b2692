/* SPDX-License-Identifier: MIT */
/*
 * test_dedup_dir.c - the dedup job's DIR replaced in one step by the kit
 * (wk_dedup_dir, kit/dedup_dir.c), in a fresh folder under $TMPDIR: a DIR
 * holding a stray file is refused, a new DIR is installed whole, an old DIR
 * swapped (its mode kept), dead staging folders removed and a live one
 * kept, a symlinked DIR staged beside its target, a parent where nothing
 * can be made refused with nothing left.  The expected names,
 * modes and messages are written by hand from docs/cli.md ("How DIR is
 * replaced").
 */
#define _GNU_SOURCE
#include "check.h"
#include "wirejson_kit.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

static char root[4096];

static void touch(const char *path)
{
    FILE *f = fopen(path, "w");
    CHECK(f != NULL);
    if (f)
        fclose(f);
}

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int exists(const char *path)
{
    struct stat sb;
    return lstat(path, &sb) == 0;
}

/* How many entries of folder dir have a name starting with prefix. */
static int count_prefixed(const char *dir, const char *prefix)
{
    DIR *d = opendir(dir);
    struct dirent *de;
    int n = 0;
    if (!d)
        return -1;
    while ((de = readdir(d)))
        n += strncmp(de->d_name, prefix, strlen(prefix)) == 0;
    closedir(d);
    return n;
}

static void test_stray_file_refused(void)
{
    wk_dedup_dir d;
    mkdir("stray", 0777);
    mkdir("stray/unique", 0777);
    touch("stray/summary.json");
    touch("stray/notes.txt");
    touch("stray/b.txt");
    CHECK(wk_dedup_dir_open(&d, "stray") == -1);
    CHECK(d.error && strcmp(d.error,
                            "--out stray holds b.txt, which dedup did not "
                            "write; DIR is replaced as a whole, so give a new "
                            "or empty folder or an earlier dedup output") == 0);
    CHECK(d.stage == NULL);
    wk_dedup_dir_free(&d);
    CHECK(exists("stray/notes.txt") && exists("stray/b.txt"));
}

static void test_fresh_dir(void)
{
    wk_dedup_dir d;
    char want[4200], path[4300];
    umask(022);
    CHECK(wk_dedup_dir_open(&d, "new/deep/out//") == 0);
    snprintf(want, sizeof want, "%s/new/deep/out", root);
    CHECK(d.exists == 0);
    CHECK(d.mode == 0755);
    CHECK(d.target && strcmp(d.target, want) == 0);
    CHECK(d.base && strcmp(d.base, "out") == 0);
    CHECK(wk_dedup_dir_stage(&d) == 0);
    /* The parent made, the stage in it, named BASE.wirejson-tmp-XXXXXX. */
    snprintf(want, sizeof want, "%s/new/deep/out.wirejson-tmp-", root);
    CHECK(d.stage && strncmp(d.stage, want, strlen(want)) == 0 &&
          strlen(d.stage) == strlen(want) + 6);
    CHECK(d.stage && is_dir(d.stage));
    CHECK(!exists("new/deep/out"));
    snprintf(path, sizeof path, "%s/unique", d.stage ? d.stage : "");
    CHECK(mkdir(path, 0777) == 0);
    snprintf(path, sizeof path, "%s/summary.json", d.stage ? d.stage : "");
    touch(path);
    CHECK(wk_dedup_dir_install(&d) == 0);
    CHECK(is_dir("new/deep/out/unique") && exists("new/deep/out/summary.json"));
    {
        struct stat sb;
        CHECK(stat("new/deep/out", &sb) == 0 && (sb.st_mode & 07777) == 0755);
    }
    wk_dedup_dir_remove_stage(&d);
    CHECK(d.stage == NULL && d.lock_fd == -1);
    CHECK(count_prefixed("new/deep", "out.") == 0);
    wk_dedup_dir_free(&d);
    CHECK(is_dir("new/deep/out/unique"));
}

static void test_old_dir_swapped(void)
{
    wk_dedup_dir d;
    char path[4300];
    struct stat sb;
    mkdir("old", 0777);
    mkdir("old/unique", 0777);
    touch("old/unique/part-00000.jsonl");
    mkdir("old/counts", 0777);
    CHECK(chmod("old", 0750) == 0);
    CHECK(wk_dedup_dir_open(&d, "old") == 0);
    CHECK(d.exists == 1 && d.mode == 0750);
    CHECK(wk_dedup_dir_stage(&d) == 0);
    snprintf(path, sizeof path, "%s/summary.json", d.stage ? d.stage : "");
    touch(path);
    CHECK(wk_dedup_dir_install(&d) == 0);
    /* The new content in DIR, the old under the staging name until it is
     * removed. */
    CHECK(exists("old/summary.json") && !exists("old/unique"));
    snprintf(path, sizeof path, "%s/unique/part-00000.jsonl",
             d.stage ? d.stage : "");
    CHECK(exists(path));
    CHECK(stat("old", &sb) == 0 && (sb.st_mode & 07777) == 0750);
    wk_dedup_dir_remove_stage(&d);
    CHECK(count_prefixed(".", "old.") == 0);
    wk_dedup_dir_free(&d);
}

static void test_dead_stages(void)
{
    wk_dedup_dir d;
    int live;
    mkdir("o", 0777);
    mkdir("o.wirejson-tmp-AbC123", 0777);
    mkdir("o.wirejson-tmp-AbC123/unique", 0777);
    touch("o.wirejson-tmp-AbC123/unique/part-00000.jsonl");
    mkdir("o.wirejson-tmp-Dead00.gone", 0777);
    mkdir("ox.wirejson-tmp-AbC123", 0777);
    mkdir("o.wirejson-tmp-Live00", 0777);
    live = open("o.wirejson-tmp-Live00", O_RDONLY | O_DIRECTORY);
    CHECK(live >= 0 && flock(live, LOCK_EX) == 0);
    CHECK(wk_dedup_dir_open(&d, "o") == 0);
    CHECK(wk_dedup_dir_stage(&d) == 0);
    CHECK(!exists("o.wirejson-tmp-AbC123"));
    CHECK(!exists("o.wirejson-tmp-Dead00.gone"));
    CHECK(is_dir("ox.wirejson-tmp-AbC123"));
    CHECK(is_dir("o.wirejson-tmp-Live00"));
    /* Ours and the live one. */
    CHECK(count_prefixed(".", "o.wirejson-tmp-") == 2);
    wk_dedup_dir_free(&d);
    CHECK(count_prefixed(".", "o.wirejson-tmp-") == 1);
    close(live);
}

static void test_symlink(void)
{
    wk_dedup_dir d;
    char want[4200];
    mkdir("elsewhere", 0777);
    mkdir("elsewhere/target", 0777);
    CHECK(symlink("elsewhere/target", "link") == 0);
    CHECK(wk_dedup_dir_open(&d, "link") == 0);
    snprintf(want, sizeof want, "%s/elsewhere/target", root);
    CHECK(d.exists && d.target && strcmp(d.target, want) == 0);
    CHECK(wk_dedup_dir_stage(&d) == 0);
    CHECK(count_prefixed("elsewhere", "target.wirejson-tmp-") == 1);
    CHECK(count_prefixed(".", "link.") == 0);
    CHECK(wk_dedup_dir_install(&d) == 0);
    wk_dedup_dir_free(&d);
    CHECK(count_prefixed("elsewhere", "target.wirejson-tmp-") == 0);
    CHECK(is_dir("link") && is_dir("elsewhere/target"));
    {
        struct stat sb;
        CHECK(lstat("link", &sb) == 0 && S_ISLNK(sb.st_mode));
    }
}

/* A parent where nothing can be made (not for root, who can anyway). */
static void test_read_only_parent(void)
{
    wk_dedup_dir d;
    char want[4600];
    if (geteuid() == 0)
        return;
    mkdir("ro", 0777);
    mkdir("ro/o", 0777);
    CHECK(chmod("ro", 0555) == 0);
    CHECK(wk_dedup_dir_open(&d, "ro/o") == 0);
    CHECK(wk_dedup_dir_stage(&d) == -1);
    snprintf(want, sizeof want,
             "cannot replace --out ro/o: cannot make a staging folder in "
             "%s/ro: Permission denied (DIR is replaced in one step by a "
             "folder built beside it)", root);
    CHECK(d.error && strcmp(d.error, want) == 0);
    CHECK(d.stage == NULL && d.lock_fd == -1);
    wk_dedup_dir_free(&d);
    chmod("ro", 0755);
}

/* A parent that is a file: nothing can be made, whoever runs. */
static void test_parent_not_a_folder(void)
{
    wk_dedup_dir d;
    char want[4600];
    touch("afile");
    CHECK(wk_dedup_dir_open(&d, "afile/o") == 0);
    CHECK(wk_dedup_dir_stage(&d) == -1 && errno == ENOTDIR);
    snprintf(want, sizeof want,
             "cannot replace --out afile/o: cannot make a staging folder in "
             "%s/afile: Not a directory (DIR is replaced in one step by a "
             "folder built beside it)", root);
    CHECK(d.error && strcmp(d.error, want) == 0);
    CHECK(d.stage == NULL && d.lock_fd == -1);
    wk_dedup_dir_free(&d);
    CHECK(wk_dedup_dir_open(&d, "afile/sub/o") == 0);
    CHECK(wk_dedup_dir_stage(&d) == -1);
    snprintf(want, sizeof want,
             "cannot make --out afile/sub/o: %s/afile/sub: Not a directory",
             root);
    CHECK(d.error && strcmp(d.error, want) == 0);
    wk_dedup_dir_free(&d);
}

static void test_install_unstaged(void)
{
    wk_dedup_dir d;
    CHECK(wk_dedup_dir_open(&d, "unstaged") == 0);
    CHECK(wk_dedup_dir_install(&d) == -1 && errno == EINVAL);
    CHECK(d.error && strcmp(d.error, "wk_dedup_dir_install: no staging folder "
                            "for --out unstaged") == 0);
    CHECK(!exists("unstaged"));
    wk_dedup_dir_free(&d);
}

int main(void)
{
    const char *tmp = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/wirejson-dedup-dir-XXXXXX",
             tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(tmpl) || !realpath(tmpl, root) || chdir(root)) {
        perror("test_dedup_dir: a scratch folder");
        return 1;
    }
    test_stray_file_refused();
    test_fresh_dir();
    test_old_dir_swapped();
    test_dead_stages();
    test_symlink();
    test_read_only_parent();
    test_parent_not_a_folder();
    test_install_unstaged();
    if (chdir("/") == 0) {
        char cmd[4200];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
        if (system(cmd))
            fprintf(stderr, "test_dedup_dir: could not remove %s\n", root);
    }
    return check_report("test_dedup_dir");
}
