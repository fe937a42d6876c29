// isulats native addon: the few syscalls Node.js 20 lacks (flock, mknod,
// l*xattr, inode flags, mount, umount2, execve, and SO_PEERCRED on a unix socket). Each binding is a thin, synchronous wrapper that
// throws an Error carrying `code` (e.g. "EPERM") and `errno`, like Node's fs.
// Some bindings are asynchronous: runProcess, run-to-completion child processes started by
// posix_spawn from worker threads (see "The spawn workers" and js_run_process), and
// spawnDetached/spawnPiped/spawnWithPipes, the same for processes that outlive their start
// (runc run -d, conmon, exec sessions); and
// seqpacketReader, conmon's attach socket read from a thread that can pause (see its comment),
// and fdReader, the same thread on a TTY exec's terminal master (received with recvFd).
// raiseThreadPriority: the daemon's event-loop thread alone at a lower nice (see its comment).
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <node_api.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS 10
#define CHECK(call)                                                   \
  do {                                                                \
    if ((call) != napi_ok) {                                          \
      napi_throw_error(env, NULL, "isulats native: bad argument");    \
      return NULL;                                                    \
    }                                                                 \
  } while (0)

static const char *errno_code(int err) {
  switch (err) {
    case EPERM: return "EPERM";
    case ENOENT: return "ENOENT";
    case EACCES: return "EACCES";
    case EEXIST: return "EEXIST";
    case EBUSY: return "EBUSY";
    case EINVAL: return "EINVAL";
    case ENOTDIR: return "ENOTDIR";
    case EISDIR: return "EISDIR";
    case ENOSPC: return "ENOSPC";
    case EROFS: return "EROFS";
    case ENODATA: return "ENODATA";
    case ENOTSUP: return "ENOTSUP";
    case ERANGE: return "ERANGE";
    case EWOULDBLOCK: return "EAGAIN";
    case EBADF: return "EBADF";
    case EINTR: return "EINTR";
    case ENAMETOOLONG: return "ENAMETOOLONG";
    case ENODEV: return "ENODEV";
    case ENOTBLK: return "ENOTBLK";
    case ELOOP: return "ELOOP";
    default: return "EUNKNOWN";
  }
}

// Throws `<syscall> <path>: <strerror>` with code/errno properties; returns NULL for the caller.
static napi_value throw_errno(napi_env env, const char *syscall, const char *path, int err) {
  char msg[4200];
  snprintf(msg, sizeof msg, "%s %s: %s", syscall, path ? path : "", strerror(err));
  napi_value message, code, error, errnum;
  napi_create_string_utf8(env, msg, NAPI_AUTO_LENGTH, &message);
  napi_create_string_utf8(env, errno_code(err), NAPI_AUTO_LENGTH, &code);
  napi_create_error(env, code, message, &error);
  napi_create_int32(env, -err, &errnum);
  napi_set_named_property(env, error, "errno", errnum);
  napi_set_named_property(env, error, "code", code);
  napi_value sc;
  napi_create_string_utf8(env, syscall, NAPI_AUTO_LENGTH, &sc);
  napi_set_named_property(env, error, "syscall", sc);
  if (path) {
    napi_value p;
    napi_create_string_utf8(env, path, NAPI_AUTO_LENGTH, &p);
    napi_set_named_property(env, error, "path", p);
  }
  napi_throw(env, error);
  return NULL;
}

// Copies a JS string argument into a malloc'd C string (caller frees); NULL for null/undefined.
static char *get_string(napi_env env, napi_value value, int *ok) {
  napi_valuetype type;
  *ok = 0;
  if (napi_typeof(env, value, &type) != napi_ok) return NULL;
  if (type == napi_null || type == napi_undefined) {
    *ok = 1;
    return NULL;
  }
  if (type != napi_string) return NULL;
  size_t len;
  if (napi_get_value_string_utf8(env, value, NULL, 0, &len) != napi_ok) return NULL;
  char *buf = malloc(len + 1);
  if (!buf) return NULL;
  napi_get_value_string_utf8(env, value, buf, len + 1, &len);
  *ok = 1;
  return buf;
}

static int get_args(napi_env env, napi_callback_info info, size_t want, napi_value *argv) {
  size_t argc = MAX_ARGS;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok) return 0;
  return argc >= want;
}

static napi_value make_bool(napi_env env, int v) {
  napi_value out;
  napi_get_boolean(env, v, &out);
  return out;
}

// flock(fd, exclusive, nonblocking) -> true when taken, false when busy (nonblocking only).
static napi_value js_flock(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 3, argv)) return throw_errno(env, "flock", NULL, EINVAL);
  int32_t fd;
  bool exclusive, nonblocking;
  CHECK(napi_get_value_int32(env, argv[0], &fd));
  CHECK(napi_get_value_bool(env, argv[1], &exclusive));
  CHECK(napi_get_value_bool(env, argv[2], &nonblocking));
  int op = (exclusive ? LOCK_EX : LOCK_SH) | (nonblocking ? LOCK_NB : 0);
  int rc;
  do rc = flock(fd, op); while (rc < 0 && errno == EINTR);
  if (rc < 0) {
    if (nonblocking && errno == EWOULDBLOCK) return make_bool(env, 0);
    return throw_errno(env, "flock", NULL, errno);
  }
  return make_bool(env, 1);
}

// funlock(fd): releases a lock early (closing the fd releases it too).
static napi_value js_funlock(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 1, argv)) return throw_errno(env, "flock", NULL, EINVAL);
  int32_t fd;
  CHECK(napi_get_value_int32(env, argv[0], &fd));
  if (flock(fd, LOCK_UN) < 0) return throw_errno(env, "flock", NULL, errno);
  return NULL;
}

// mknod(path, mode, major, minor): mode includes the file type bits (S_IFCHR, S_IFBLK, S_IFIFO).
static napi_value js_mknod(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 4, argv)) return throw_errno(env, "mknod", NULL, EINVAL);
  int ok;
  char *path = get_string(env, argv[0], &ok);
  if (!path) return throw_errno(env, "mknod", NULL, EINVAL);
  uint32_t mode, major, minor;
  if (napi_get_value_uint32(env, argv[1], &mode) != napi_ok || napi_get_value_uint32(env, argv[2], &major) != napi_ok ||
      napi_get_value_uint32(env, argv[3], &minor) != napi_ok) {
    free(path);
    return throw_errno(env, "mknod", NULL, EINVAL);
  }
  napi_value result = NULL;
  if (mknod(path, (mode_t)mode, makedev(major, minor)) < 0) result = throw_errno(env, "mknod", path, errno);
  free(path);
  return result;
}

// lsetxattr(path, name, value: Buffer): never follows a final symlink.
static napi_value js_lsetxattr(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 3, argv)) return throw_errno(env, "lsetxattr", NULL, EINVAL);
  int ok1, ok2;
  char *path = get_string(env, argv[0], &ok1);
  char *name = get_string(env, argv[1], &ok2);
  void *data = NULL;
  size_t len = 0;
  napi_value result = NULL;
  if (!path || !name || napi_get_buffer_info(env, argv[2], &data, &len) != napi_ok) {
    result = throw_errno(env, "lsetxattr", path, EINVAL);
  } else if (lsetxattr(path, name, data, len, 0) < 0) {
    result = throw_errno(env, "lsetxattr", path, errno);
  }
  free(path);
  free(name);
  return result;
}

// lgetxattr(path, name) -> Buffer, or null when the attribute is absent.
static napi_value js_lgetxattr(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 2, argv)) return throw_errno(env, "lgetxattr", NULL, EINVAL);
  int ok1, ok2;
  char *path = get_string(env, argv[0], &ok1);
  char *name = get_string(env, argv[1], &ok2);
  napi_value result = NULL;
  if (!path || !name) {
    result = throw_errno(env, "lgetxattr", path, EINVAL);
    goto out;
  }
  for (int attempt = 0; attempt < 4; attempt++) {
    ssize_t size = lgetxattr(path, name, NULL, 0);
    if (size < 0) {
      if (errno == ENODATA) napi_get_null(env, &result);
      else result = throw_errno(env, "lgetxattr", path, errno);
      goto out;
    }
    char *buf = malloc(size ? size : 1);
    ssize_t got = lgetxattr(path, name, buf, size);
    if (got >= 0) {
      napi_create_buffer_copy(env, got, buf, NULL, &result);
      free(buf);
      goto out;
    }
    int err = errno;
    free(buf);
    if (err != ERANGE) {
      result = throw_errno(env, "lgetxattr", path, err);
      goto out;
    }
  }
  result = throw_errno(env, "lgetxattr", path, ERANGE);
out:
  free(path);
  free(name);
  return result;
}

// The inode flag ioctls and chattr's +T (FS_TOPDIR_FL), spelled out: <linux/fs.h> clashes with
// <sys/mount.h> under glibc 2.36.
#define ISULATS_FS_IOC_GETFLAGS _IOR('f', 1, long)
#define ISULATS_FS_IOC_SETFLAGS _IOW('f', 2, long)
#define ISULATS_FS_TOPDIR_FL 0x00020000

// markTopDirectory(path) -> true once the directory carries the "top of directory hierarchies"
// flag (chattr +T), false when its file system keeps no such flag (tmpfs, xfs, overlay...).
// ext4's Orlov allocator then places each new subdirectory in a block group of its own choosing
// instead of the parent's.
static napi_value js_mark_top_directory(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 1, argv)) return throw_errno(env, "markTopDirectory", NULL, EINVAL);
  int ok;
  char *path = get_string(env, argv[0], &ok);
  if (!path) return throw_errno(env, "markTopDirectory", NULL, EINVAL);
  napi_value result = NULL;
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) {
    result = throw_errno(env, "open", path, errno);
    free(path);
    return result;
  }
  int flags = 0; // the kernel reads and writes an int, whatever the ioctl's declared type
  int err = 0;
  if (ioctl(fd, ISULATS_FS_IOC_GETFLAGS, &flags) < 0) {
    err = errno;
  } else if (!(flags & ISULATS_FS_TOPDIR_FL)) {
    flags |= ISULATS_FS_TOPDIR_FL;
    if (ioctl(fd, ISULATS_FS_IOC_SETFLAGS, &flags) < 0) err = errno;
  }
  close(fd);
  if (err == 0) {
    result = make_bool(env, 1);
  } else if (err == ENOTTY || err == EOPNOTSUPP || err == EINVAL || err == ENOSYS) {
    result = make_bool(env, 0);
  } else {
    result = throw_errno(env, "ioctl FS_IOC_SETFLAGS", path, err);
  }
  free(path);
  return result;
}

// llistxattr(path) -> string[] of attribute names.
static napi_value js_llistxattr(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 1, argv)) return throw_errno(env, "llistxattr", NULL, EINVAL);
  int ok;
  char *path = get_string(env, argv[0], &ok);
  napi_value result = NULL;
  if (!path) return throw_errno(env, "llistxattr", NULL, EINVAL);
  for (int attempt = 0; attempt < 4; attempt++) {
    ssize_t size = llistxattr(path, NULL, 0);
    if (size < 0) {
      result = throw_errno(env, "llistxattr", path, errno);
      goto out;
    }
    char *buf = malloc(size ? size : 1);
    ssize_t got = llistxattr(path, buf, size);
    if (got >= 0) {
      napi_create_array(env, &result);
      uint32_t index = 0;
      for (ssize_t off = 0; off < got;) {
        size_t len = strnlen(buf + off, got - off);
        napi_value name;
        napi_create_string_utf8(env, buf + off, len, &name);
        napi_set_element(env, result, index++, name);
        off += len + 1;
      }
      free(buf);
      goto out;
    }
    int err = errno;
    free(buf);
    if (err != ERANGE) {
      result = throw_errno(env, "llistxattr", path, err);
      goto out;
    }
  }
  result = throw_errno(env, "llistxattr", path, ERANGE);
out:
  free(path);
  return result;
}

// mount(source, target, fstype, flags, data): source/fstype/data may be null.
static napi_value js_mount(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 5, argv)) return throw_errno(env, "mount", NULL, EINVAL);
  int ok1, ok2, ok3, ok5;
  char *source = get_string(env, argv[0], &ok1);
  char *target = get_string(env, argv[1], &ok2);
  char *fstype = get_string(env, argv[2], &ok3);
  char *data = get_string(env, argv[4], &ok5);
  double flags = 0;
  napi_value result = NULL;
  if (!ok1 || !target || !ok3 || !ok5 || napi_get_value_double(env, argv[3], &flags) != napi_ok) {
    result = throw_errno(env, "mount", target, EINVAL);
  } else if (mount(source, target, fstype, (unsigned long)flags, data) < 0) {
    result = throw_errno(env, "mount", target, errno);
  }
  free(source);
  free(target);
  free(fstype);
  free(data);
  return result;
}

// umount2(target, flags): flags such as MNT_DETACH (2).
static napi_value js_umount2(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 2, argv)) return throw_errno(env, "umount2", NULL, EINVAL);
  int ok;
  char *target = get_string(env, argv[0], &ok);
  int32_t flags;
  napi_value result = NULL;
  if (!target || napi_get_value_int32(env, argv[1], &flags) != napi_ok) {
    result = throw_errno(env, "umount2", target, EINVAL);
  } else if (umount2(target, flags) < 0) {
    result = throw_errno(env, "umount2", target, errno);
  }
  free(target);
  return result;
}

// The new mount API, by syscall number (glibc 2.36 has wrappers, but <sys/mount.h> and
// <linux/mount.h> clash there). Values from <linux/mount.h>.
#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_move_mount
#define SYS_move_mount 429
#endif
#ifndef SYS_mount_setattr
#define SYS_mount_setattr 442
#endif
#define ISULATS_OPEN_TREE_CLONE 1
#define ISULATS_MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#define ISULATS_MOUNT_ATTR_IDMAP 0x00100000
struct isulats_mount_attr {
  uint64_t attr_set;
  uint64_t attr_clr;
  uint64_t propagation;
  uint64_t userns_fd;
};

// idmapMount(source, target, usernsPath, recursive): a clone of the mount tree at source
// (open_tree OPEN_TREE_CLONE, with AT_RECURSIVE its submounts too), idmapped with the
// user namespace pinned at usernsPath (mount_setattr MOUNT_ATTR_IDMAP), attached at target
// (move_mount). Files owned by host ID H show as H's ID in that namespace's mapping.
static napi_value js_idmap_mount(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 4, argv)) return throw_errno(env, "idmapMount", NULL, EINVAL);
  int ok1, ok2, ok3;
  char *source = get_string(env, argv[0], &ok1);
  char *target = get_string(env, argv[1], &ok2);
  char *userns = get_string(env, argv[2], &ok3);
  bool recursive = false;
  napi_value result = NULL;
  int tree = -1, ns = -1;
  if (!source || !target || !userns || napi_get_value_bool(env, argv[3], &recursive) != napi_ok) {
    result = throw_errno(env, "idmapMount", target, EINVAL);
    goto out;
  }
  ns = open(userns, O_RDONLY | O_CLOEXEC);
  if (ns < 0) {
    result = throw_errno(env, "open", userns, errno);
    goto out;
  }
  tree = (int)syscall(SYS_open_tree, AT_FDCWD, source, ISULATS_OPEN_TREE_CLONE | O_CLOEXEC | (recursive ? AT_RECURSIVE : 0));
  if (tree < 0) {
    result = throw_errno(env, "open_tree", source, errno);
    goto out;
  }
  struct isulats_mount_attr attr = {.attr_set = ISULATS_MOUNT_ATTR_IDMAP, .userns_fd = (uint64_t)ns};
  if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH | (recursive ? AT_RECURSIVE : 0), &attr, sizeof(attr)) < 0) {
    result = throw_errno(env, "mount_setattr MOUNT_ATTR_IDMAP", source, errno);
    goto out;
  }
  if (syscall(SYS_move_mount, tree, "", AT_FDCWD, target, ISULATS_MOVE_MOUNT_F_EMPTY_PATH) < 0) {
    result = throw_errno(env, "move_mount", target, errno);
  }
out:
  if (tree >= 0) close(tree);
  if (ns >= 0) close(ns);
  free(source);
  free(target);
  free(userns);
  return result;
}

// peercred(fd) -> { pid, uid, gid } of the process at the other end of a connected unix socket.
static napi_value js_peercred(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 1, argv)) return throw_errno(env, "getsockopt", NULL, EINVAL);
  int32_t fd;
  CHECK(napi_get_value_int32(env, argv[0], &fd));
  struct ucred cred;
  socklen_t len = sizeof cred;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0) return throw_errno(env, "getsockopt", "SO_PEERCRED", errno);
  napi_value out, pid, uid, gid;
  napi_create_object(env, &out);
  napi_create_int32(env, cred.pid, &pid);
  napi_create_uint32(env, cred.uid, &uid);
  napi_create_uint32(env, cred.gid, &gid);
  napi_set_named_property(env, out, "pid", pid);
  napi_set_named_property(env, out, "uid", uid);
  napi_set_named_property(env, out, "gid", gid);
  return out;
}

// Frees a NULL-terminated array of strings made by get_string_array.
static void free_string_array(char **list) {
  if (!list) return;
  for (char **p = list; *p; p++) free(*p);
  free(list);
}

// Copies a JS array of strings into a NULL-terminated array of malloc'd C strings; NULL on error.
static char **get_string_array(napi_env env, napi_value value) {
  uint32_t len;
  if (napi_get_array_length(env, value, &len) != napi_ok) return NULL;
  char **list = calloc(len + 1, sizeof *list);
  if (!list) return NULL;
  for (uint32_t i = 0; i < len; i++) {
    napi_value item;
    int ok;
    if (napi_get_element(env, value, i, &item) != napi_ok || !(list[i] = get_string(env, item, &ok))) {
      free_string_array(list);
      return NULL;
    }
  }
  return list;
}

extern char **environ;

// The length of an environment entry's name (up to its '=').
static size_t env_name_len(const char *entry) {
  return strchrnul(entry, '=') - entry;
}

// A child's environment, a NULL-terminated array of malloc'd strings (NULL on error): `base` (a JS
// array of "NAME=value"), or, when it is null, this process's own environment, read here from
// `environ` (process.env reads and writes it through getenv/setenv; converting process.env in
// JavaScript cost ~0.1 ms of the event loop per child); then each of `extra` (null or an array of
// "NAME=value") replaces the entry of its name in place or is appended, as `{ ...base, ...extra }`
// orders them. Entries without '=' are skipped, as Node's process.env does.
static char **get_env(napi_env env, napi_value base, napi_value extra) {
  napi_valuetype base_type, extra_type;
  if (napi_typeof(env, base, &base_type) != napi_ok || napi_typeof(env, extra, &extra_type) != napi_ok) return NULL;
  int inherit = base_type == napi_null || base_type == napi_undefined;
  char **given = inherit ? NULL : get_string_array(env, base);
  char **more = NULL;
  if (!inherit && !given) return NULL;
  if (extra_type != napi_null && extra_type != napi_undefined && !(more = get_string_array(env, extra))) {
    free_string_array(given);
    return NULL;
  }
  char *const *from = inherit ? environ : given;
  size_t count = 0, extras = 0;
  for (char *const *e = from; e && *e; e++) count++;
  for (char **e = more; e && *e; e++) extras++;
  char **out = calloc(count + extras + 1, sizeof *out);
  size_t n = 0;
  int failed = !out;
  for (size_t i = 0; !failed && i < count; i++) {
    if (inherit && !strchr(from[i], '=')) continue;
    out[n] = inherit ? strdup(from[i]) : given[i];
    if (!inherit) given[i] = NULL;  // moved
    if (!out[n++]) failed = 1;
  }
  for (size_t j = 0; !failed && j < extras; j++) {
    size_t len = env_name_len(more[j]);
    size_t i = 0;
    while (i < n && !(env_name_len(out[i]) == len && strncmp(out[i], more[j], len) == 0)) i++;
    free(out[i]);  // NULL when appended
    out[i] = more[j];
    more[j] = NULL;  // moved
    if (i == n) n++;
  }
  if (failed) {
    free_string_array(out);
    out = NULL;
  }
  // What was not moved (everything on failure): free each, then the arrays.
  if (given) for (size_t i = 0; i < count; i++) free(given[i]);
  if (more) for (size_t j = 0; j < extras; j++) free(more[j]);
  free(given);
  free(more);
  return out;
}

// execve(path, argv, envp): replaces the process image (same PID). Returns only on failure, by throwing.
// The daemon uses it once at start-up to run itself again under its Node.js and glibc settings.
static napi_value js_execve(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 3, argv)) return throw_errno(env, "execve", NULL, EINVAL);
  int ok;
  char *path = get_string(env, argv[0], &ok);
  char **args = get_string_array(env, argv[1]);
  char **envp = get_string_array(env, argv[2]);
  int err = EINVAL;
  if (path && args && envp) {
    // Node.js marks stdin, stdout and stderr close-on-exec: the new image keeps them.
    for (int fd = 0; fd <= 2; fd++) {
      int flags = fcntl(fd, F_GETFD);
      if (flags >= 0 && (flags & FD_CLOEXEC)) fcntl(fd, F_SETFD, flags & ~FD_CLOEXEC);
    }
    execve(path, args, envp);
    err = errno;
  }
  napi_value result = throw_errno(env, "execve", path, err);
  free(path);
  free_string_array(args);
  free_string_array(envp);
  return result;
}

// ---- The spawn workers and their one thread-safe function ----
//
// runProcess and the spawn* bindings hand each child to a worker thread, which blocks on it (the
// spawn, its pipes, waitpid) for as long as it runs. Workers are kept: one that finishes waits
// for the next job for WORKER_IDLE_MS before it exits, so a burst of children reuses a few
// threads instead of creating (clone, a stack mapping, a wake-up that preempts the event loop)
// one per child. A job never waits for a busy worker: when none is idle, a new one is made (a
// child may run for hours, e.g. an exec session's runc exec), so there are as many workers as
// children running at once. Results reach JavaScript through one thread-safe function per
// environment (a uv_async handle), referenced only while jobs are in flight, so that pending
// children keep the process alive and none keep it alive after; each job carries a reference to
// its own JavaScript callback.

#define WORKER_IDLE_MS 2000
#define WORKER_STACK (256 * 1024)  // runProcess's 64 KiB read buffer lives on it

struct work {
  void (*run)(void *arg);
  void *arg;
  struct work *next;
};

static pthread_mutex_t pool_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t pool_wake;  // CLOCK_MONOTONIC, set up by init()
static struct work *pool_head, *pool_tail;
static int pool_idle, pool_queued;
static unsigned long pool_created;  // workers ever made (tests read it through spawnStats)

// Workers run SCHED_BATCH when this process runs SCHED_OTHER: a worker woken (a job, a child's
// output or exit) then never preempts the event loop's thread, which under a burst was preempted
// about once per child, for as long as the worker, the child and the rest of the burst held
// the CPU. Children get this process's own policy back (spawn_attr_init).
static int batch_workers;

static void *worker_main(void *arg) {
  (void)arg;
  if (batch_workers) sched_setscheduler(0, SCHED_BATCH, &(struct sched_param){0});
  pthread_mutex_lock(&pool_mutex);
  for (;;) {
    if (!pool_head) {
      struct timespec until;
      clock_gettime(CLOCK_MONOTONIC, &until);
      until.tv_sec += WORKER_IDLE_MS / 1000;
      until.tv_nsec += (WORKER_IDLE_MS % 1000) * 1000000L;
      if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
      }
      pool_idle++;
      int rc = 0;
      while (!pool_head && rc != ETIMEDOUT) rc = pthread_cond_timedwait(&pool_wake, &pool_mutex, &until);
      pool_idle--;
      if (!pool_head) break;
    }
    struct work *w = pool_head;
    pool_head = w->next;
    if (!pool_head) pool_tail = NULL;
    pool_queued--;
    pthread_mutex_unlock(&pool_mutex);
    w->run(w->arg);
    free(w);
    pthread_mutex_lock(&pool_mutex);
  }
  pthread_mutex_unlock(&pool_mutex);
  return NULL;
}

static int start_thread(void *(*fn)(void *), void *arg, size_t stack);

// Queues `run(arg)` for a worker, waking an idle one or making one; 0 or an errno (nothing queued).
static int pool_submit(void (*run)(void *), void *arg) {
  struct work *w = malloc(sizeof *w);
  if (!w) return ENOMEM;
  *w = (struct work){run, arg, NULL};
  pthread_mutex_lock(&pool_mutex);
  int need_worker = pool_queued >= pool_idle;  // every idle worker already has a queued job to take
  if (pool_tail) pool_tail->next = w;
  else pool_head = w;
  pool_tail = w;
  pool_queued++;
  if (!need_worker) pthread_cond_signal(&pool_wake);
  pthread_mutex_unlock(&pool_mutex);
  if (!need_worker) return 0;
  int rc = start_thread(worker_main, NULL, WORKER_STACK);
  pthread_mutex_lock(&pool_mutex);
  if (rc == 0) pool_created++;
  else {
    // No thread for it: take it back unless a worker already has (a busy one might not get to it for hours).
    struct work **p = &pool_head, *prev = NULL;
    while (*p && *p != w) p = &(prev = *p)->next;
    if (*p) {
      *p = w->next;
      if (pool_tail == w) pool_tail = prev;
      pool_queued--;
      free(w);
    } else rc = 0;
  }
  pthread_mutex_unlock(&pool_mutex);
  return rc;
}

// What a worker hands to JavaScript; the first member of each message type. `deliver` runs on the
// JS thread with its callback (env NULL when the environment is going away: free only), then
// frees the message. The callback reference is dropped with the job's last message.
struct delivery {
  void (*deliver)(napi_env env, napi_value callback, struct delivery *msg);
  napi_ref callback;
  int last;
  struct spawn_env *owner;
};

// Per environment (napi instance data); never freed, for a worker may still hold it when the
// environment goes: `closing` (under `mutex`) then tells it not to touch the thread-safe function.
struct spawn_env {
  pthread_mutex_t mutex;
  int closing;
  napi_threadsafe_function tsfn;
  uint32_t in_flight;  // jobs not yet fully delivered (JS thread only)
};

// Runs on the JS thread for each message, in the order they were sent.
static void dispatch(napi_env env, napi_value unused, void *context, void *data) {
  struct delivery *msg = data;
  struct spawn_env *se = context;
  (void)unused;
  napi_value callback = NULL;
  if (env && napi_get_reference_value(env, msg->callback, &callback) != napi_ok) callback = NULL;
  int last = msg->last;
  napi_ref ref = msg->callback;
  msg->deliver(env && callback ? env : NULL, callback, msg);  // frees msg
  if (env && last) {
    napi_delete_reference(env, ref);
    if (--se->in_flight == 0) napi_unref_threadsafe_function(env, se->tsfn);
  }
}

static void spawn_env_closing(void *arg) {
  struct spawn_env *se = arg;
  pthread_mutex_lock(&se->mutex);
  se->closing = 1;
  pthread_mutex_unlock(&se->mutex);
}

// This environment's delivery state, made on first use; NULL (with a JS error thrown) on failure.
static struct spawn_env *spawn_env_of(napi_env env) {
  struct spawn_env *se = NULL;
  if (napi_get_instance_data(env, (void **)&se) == napi_ok && se) return se;
  se = calloc(1, sizeof *se);
  napi_value name;
  napi_create_string_utf8(env, "isulats.spawn", NAPI_AUTO_LENGTH, &name);
  if (!se || napi_create_threadsafe_function(env, NULL, NULL, name, 0, 1, NULL, NULL, se, dispatch, &se->tsfn) != napi_ok) {
    free(se);
    throw_errno(env, "spawn", NULL, ENOMEM);
    return NULL;
  }
  pthread_mutex_init(&se->mutex, NULL);
  napi_unref_threadsafe_function(env, se->tsfn);
  napi_add_env_cleanup_hook(env, spawn_env_closing, se);
  napi_set_instance_data(env, se, NULL, NULL);
  return se;
}

// On the JS thread, before a job is submitted: a reference to its callback, the loop kept alive.
static int job_begin(napi_env env, struct spawn_env *se, napi_value callback, napi_ref *ref) {
  napi_valuetype type;
  if (napi_typeof(env, callback, &type) != napi_ok || type != napi_function) return EINVAL;
  if (napi_create_reference(env, callback, 1, ref) != napi_ok) return ENOMEM;
  if (se->in_flight++ == 0) napi_ref_threadsafe_function(env, se->tsfn);
  return 0;
}

// On the JS thread, when a job could not be submitted after job_begin.
static void job_abandon(napi_env env, struct spawn_env *se, napi_ref ref) {
  napi_delete_reference(env, ref);
  if (--se->in_flight == 0) napi_unref_threadsafe_function(env, se->tsfn);
}

// From a worker: queues `msg` for JavaScript; when the environment is going away, frees it (its
// deliver with env NULL: fds it carries are closed).
static void post(struct delivery *msg) {
  struct spawn_env *se = msg->owner;
  pthread_mutex_lock(&se->mutex);
  int sent = !se->closing && napi_call_threadsafe_function(se->tsfn, msg, napi_tsfn_nonblocking) == napi_ok;
  pthread_mutex_unlock(&se->mutex);
  if (!sent) msg->deliver(NULL, NULL, msg);
}

// ---- runProcess: run-to-completion child processes without forking Node ----
//
// Why not child_process: libuv fork()s the whole Node process (page tables of ~70 MB copied) and
// blocks the event loop until the child has exec'd; with 6-10 short-lived processes per pod
// (runc, CNI plugins, nsenter) that was a third of the daemon's busy time under load. Here a
// worker (see above) posix_spawn()s (glibc: clone(CLONE_VM|CLONE_VFORK), no page-table copy,
// only that thread waits for the exec), feeds stdin, drains stdout/stderr, enforces the timeout
// and output cap, reaps the child with waitpid() and hands the result to JavaScript. Threads of
// our own rather than libuv's pool (4 threads, shared with fs and dns) because a child may run
// for seconds. Reaping here is safe: libuv's SIGCHLD handler only waitpid()s the pids it spawned
// itself.

struct out_buf {
  char *data;
  size_t len, cap;
};

struct run_job {
  struct delivery d;  // first: the job is its own message
  char *file, *cwd;
  char **argv, **envp;
  char *input;
  size_t input_len;
  int64_t timeout_ms;  // < 0: none
  size_t max_output;   // bytes kept per stream
  // Results, written by the worker.
  int spawn_errno;  // set when the child could not be started
  int exit_code;    // -1 when killed by a signal
  int term_signal;  // 0 when it exited
  int timed_out, truncated;
  struct out_buf out, err;
};

// What the spawn needed (the worker frees it once the child has started, off the JS thread).
static void free_job_request(struct run_job *job) {
  free(job->file);
  free(job->cwd);
  free_string_array(job->argv);
  free_string_array(job->envp);
  job->file = job->cwd = NULL;
  job->argv = job->envp = NULL;
}

static void free_job(struct run_job *job) {
  free_job_request(job);
  free(job->input);
  free(job->out.data);
  free(job->err.data);
  free(job);
}

static int64_t now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void close_fd(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

// Keeps the first `max` bytes of a stream; later bytes are dropped (and counted as truncation).
static void append_capped(struct run_job *job, struct out_buf *b, const char *data, size_t len) {
  size_t room = job->max_output > b->len ? job->max_output - b->len : 0;
  if (len > room) {
    job->truncated = 1;
    len = room;
  }
  if (len == 0) return;
  if (b->len + len > b->cap) {
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + len) cap *= 2;
    char *grown = realloc(b->data, cap);
    if (!grown) {
      job->truncated = 1;
      return;
    }
    b->data = grown;
    b->cap = cap;
  }
  memcpy(b->data + b->len, data, len);
  b->len += len;
}

// posix_spawnp would search the PATH of *this* process; Node's spawn searches the PATH of the
// child's environment (or /usr/bin:/bin without one), so the search is done here, execvp-style.
struct spawn_target {
  const char *file, *cwd;
  char *const *argv, *const *envp;
};

static int spawn_resolved(pid_t *pid, const struct spawn_target *job, const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr) {
  if (strchr(job->file, '/')) return posix_spawn(pid, job->file, fa, attr, job->argv, job->envp);
  const char *path = "/usr/bin:/bin";
  for (char *const *e = job->envp; *e; e++)
    if (strncmp(*e, "PATH=", 5) == 0) path = *e + 5;
  size_t flen = strlen(job->file), clen = job->cwd ? strlen(job->cwd) : 0;
  int err = ENOENT;
  for (const char *p = path;; p++) {
    const char *end = strchrnul(p, ':');
    size_t dlen = end - p;
    // An empty entry means the working directory (the child's: `cwd` when given).
    char *candidate = malloc(dlen + flen + 3), *probe = NULL;
    if (!candidate) return ENOMEM;
    snprintf(candidate, dlen + flen + 3, "%.*s/%s", (int)dlen, dlen ? p : ".", job->file);
    if (candidate[0] != '/' && job->cwd && (probe = malloc(clen + strlen(candidate) + 2)))
      sprintf(probe, "%s/%s", job->cwd, candidate);
    struct stat st;
    int found = stat(probe ? probe : candidate, &st) == 0;
    free(probe);
    if (found && S_ISREG(st.st_mode) && (st.st_mode & 0111)) {
      int rc = posix_spawn(pid, candidate, fa, attr, job->argv, job->envp);
      free(candidate);
      return rc;
    }
    if (found) err = EACCES;  // like execvp: something is there but cannot be run
    free(candidate);
    if (!*end) return err;
    p = end;
  }
}

// Like libuv: an empty signal mask and default dispositions (Node ignores SIGPIPE; children
// must not), plus `flags` (POSIX_SPAWN_SETSID for a session of its own).
static void spawn_attr_init(posix_spawnattr_t *attr, short flags) {
  sigset_t empty, all;
  sigemptyset(&empty);
  sigfillset(&all);
  // glibc's sigfillset leaves out its internal signals (32 and 33), which posix_spawn then
  // sets to SIG_IGN in the child, and SIG_IGN survives exec: set their bits by hand.
  for (int sig = 32; sig < SIGRTMIN; sig++) {
    const int bits = 8 * sizeof all.__val[0];
    all.__val[(sig - 1) / bits] |= 1UL << ((sig - 1) % bits);
  }
  posix_spawnattr_init(attr);
  if (batch_workers) {
    // The policy this process has (SCHED_OTHER), not the worker's SCHED_BATCH; nice is kept.
    flags |= POSIX_SPAWN_SETSCHEDULER;
    posix_spawnattr_setschedpolicy(attr, SCHED_OTHER);
    posix_spawnattr_setschedparam(attr, &(struct sched_param){0});
  }
  posix_spawnattr_setflags(attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | flags);
  posix_spawnattr_setsigmask(attr, &empty);
  posix_spawnattr_setsigdefault(attr, &all);
}

static void run_work(void *arg) {
  struct run_job *job = arg;
  int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1}, pidfd = -1;
  pid_t pid = -1;
  int started = 0;
  // O_CLOEXEC: another thread spawning at the same moment must not inherit our pipes; dup2 onto
  // 0/1/2 in the child clears the flag there.
  if (pipe2(in, O_CLOEXEC) < 0 || pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0) {
    job->spawn_errno = errno;
  } else {
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, in[0], 0);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_adddup2(&fa, err[1], 2);
    if (job->cwd) posix_spawn_file_actions_addchdir_np(&fa, job->cwd);
    spawn_attr_init(&attr, 0);
    struct spawn_target target = {job->file, job->cwd, job->argv, job->envp};
    job->spawn_errno = spawn_resolved(&pid, &target, &fa, &attr);
    started = job->spawn_errno == 0;
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
  }
  close_fd(&in[0]);
  close_fd(&out[1]);
  close_fd(&err[1]);
  free_job_request(job);
  if (!started) {
    close_fd(&in[1]);
    close_fd(&out[0]);
    close_fd(&err[0]);
    goto done;
  }

  // A pidfd turns "the child exited" into one more pollable fd, so a child that closes its
  // output early still meets its timeout. Without one (kernel < 5.3) waitpid() polls below.
  pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
  size_t written = 0;
  if (job->input_len == 0) close_fd(&in[1]);
  else fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);  // our end only: the child's is another file description
  int64_t deadline = job->timeout_ms >= 0 ? now_ms() + job->timeout_ms : -1;
  int status = 0, reaped = 0;
  char chunk[65536];
  while (out[0] >= 0 || err[0] >= 0 || (pidfd >= 0 && !reaped)) {
    struct pollfd pfd[4];
    int n = 0, i_in = -1, i_out = -1, i_err = -1, i_pid = -1;
    if (in[1] >= 0) pfd[i_in = n++] = (struct pollfd){in[1], POLLOUT, 0};
    if (out[0] >= 0) pfd[i_out = n++] = (struct pollfd){out[0], POLLIN, 0};
    if (err[0] >= 0) pfd[i_err = n++] = (struct pollfd){err[0], POLLIN, 0};
    if (pidfd >= 0 && !reaped) pfd[i_pid = n++] = (struct pollfd){pidfd, POLLIN, 0};
    int wait = -1;
    if (deadline >= 0) {
      int64_t left = deadline - now_ms();
      wait = left > 0 ? (int)(left > 1000000 ? 1000000 : left) : 0;
    }
    int ready = poll(pfd, n, wait);
    if (ready < 0 && errno != EINTR) break;
    if (deadline >= 0 && now_ms() >= deadline) {
      // Killed by PID, as before; never once reaped (the PID may be reused by then).
      if (!reaped) kill(pid, SIGKILL);
      job->timed_out = 1;
      deadline = -1;
    }
    if (ready <= 0) continue;
    if (i_in >= 0 && pfd[i_in].revents) {
      ssize_t w = (pfd[i_in].revents & POLLOUT) ? write(in[1], job->input + written, job->input_len - written) : -1;
      if (w > 0) written += w;
      // Done, or the child closed its stdin (EPIPE: SIGPIPE is ignored in Node and blocked here).
      if (written == job->input_len || (w < 0 && errno != EAGAIN && errno != EINTR)) close_fd(&in[1]);
    }
    int idx[2] = {i_out, i_err};
    int *fds[2] = {&out[0], &err[0]};
    struct out_buf *bufs[2] = {&job->out, &job->err};
    for (int k = 0; k < 2; k++) {
      if (idx[k] < 0 || !pfd[idx[k]].revents) continue;
      ssize_t r = read(*fds[k], chunk, sizeof chunk);
      if (r > 0) append_capped(job, bufs[k], chunk, r);
      else if (r == 0 || (errno != EAGAIN && errno != EINTR)) close_fd(fds[k]);
    }
    if (i_pid >= 0 && pfd[i_pid].revents && waitpid(pid, &status, WNOHANG) == pid) reaped = 1;
  }
  close_fd(&in[1]);
  close_fd(&out[0]);
  close_fd(&err[0]);
  close_fd(&pidfd);
  // Without a pidfd: wait, still honouring the timeout (a short sleep between tries).
  while (!reaped) {
    int flags = deadline >= 0 ? WNOHANG : 0;
    pid_t w = waitpid(pid, &status, flags);
    if (w == pid) reaped = 1;
    else if (w < 0 && errno != EINTR) break;
    else if (w == 0 && now_ms() >= deadline) {
      kill(pid, SIGKILL);
      job->timed_out = 1;
      deadline = -1;
    } else if (w == 0) {
      nanosleep(&(struct timespec){0, 5000000}, NULL);
    }
  }
  if (WIFSIGNALED(status)) {
    job->exit_code = -1;
    job->term_signal = WTERMSIG(status);
  } else {
    job->exit_code = WEXITSTATUS(status);
  }
done:
  post(&job->d);
}

// On the JS thread: callback(errno, exitCode, signal, stdout, stderr, timedOut, truncated).
static void run_deliver(napi_env env, napi_value callback, struct delivery *msg) {
  struct run_job *job = (struct run_job *)msg;
  if (env) {
    napi_value argv[7], undefined;
    napi_create_int32(env, job->spawn_errno, &argv[0]);
    napi_create_int32(env, job->exit_code, &argv[1]);
    napi_create_int32(env, job->term_signal, &argv[2]);
    napi_get_undefined(env, &undefined);
    // Nothing written: undefined (JavaScript puts in an empty Buffer of its own), one buffer less to make.
    if (job->out.len) napi_create_buffer_copy(env, job->out.len, job->out.data, NULL, &argv[3]);
    else argv[3] = undefined;
    if (job->err.len) napi_create_buffer_copy(env, job->err.len, job->err.data, NULL, &argv[4]);
    else argv[4] = undefined;
    napi_get_boolean(env, job->timed_out, &argv[5]);
    napi_get_boolean(env, job->truncated, &argv[6]);
    napi_call_function(env, undefined, callback, 7, argv, NULL);
  }
  free_job(job);
}

// runProcess(file, argv, env|null, envExtra|null, cwd|null, input|null, timeoutMs (<0: none),
// maxOutput, callback): env null is this process's environment (see get_env). Hands the child to
// a worker and returns; throws only when the arguments are bad or no worker can be made.
static napi_value js_run_process(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 9, argv)) return throw_errno(env, "runProcess", NULL, EINVAL);
  struct spawn_env *se = spawn_env_of(env);
  if (!se) return NULL;
  struct run_job *job = calloc(1, sizeof *job);
  if (!job) return throw_errno(env, "runProcess", NULL, ENOMEM);
  job->d = (struct delivery){.deliver = run_deliver, .last = 1, .owner = se};
  int ok_file, ok_cwd;
  job->file = get_string(env, argv[0], &ok_file);
  job->argv = get_string_array(env, argv[1]);
  job->envp = get_env(env, argv[2], argv[3]);
  job->cwd = get_string(env, argv[4], &ok_cwd);
  napi_valuetype input_type;
  double timeout = -1, max_output = 0;
  int bad = !job->file || !job->argv || !job->envp || !ok_cwd || napi_typeof(env, argv[5], &input_type) != napi_ok ||
            napi_get_value_double(env, argv[6], &timeout) != napi_ok || napi_get_value_double(env, argv[7], &max_output) != napi_ok;
  if (!bad && input_type != napi_null && input_type != napi_undefined) {
    void *data;
    size_t len;
    if (napi_get_buffer_info(env, argv[5], &data, &len) != napi_ok || (len && !(job->input = malloc(len)))) bad = 1;
    else if (len) {
      memcpy(job->input, data, len);
      job->input_len = len;
    }
  }
  job->timeout_ms = timeout < 0 ? -1 : (int64_t)timeout;
  job->max_output = max_output < 0 ? 0 : (size_t)max_output;
  if (bad || job_begin(env, se, argv[8], &job->d.callback) != 0) {
    free_job(job);
    return throw_errno(env, "runProcess", NULL, EINVAL);
  }
  int rc = pool_submit(run_work, job);
  if (rc != 0) {
    job_abandon(env, se, job->d.callback);
    free_job(job);
    return throw_errno(env, "pthread_create", NULL, rc);
  }
  return NULL;
}

// ---- spawnDetached: processes that outlive their start (runc run -d, conmon) ----
//
// The same reasons as runProcess (no fork of Node, no event-loop stall until exec), for the two
// processes per pod that child_process still started: the pause container's `runc run -d` and
// conmon. The child gets a session of its own (POSIX_SPAWN_SETSID, like detached: true), stdin,
// stdout and stderr on /dev/null (never pipes: the container's init inherits runc's stdio, and a
// pipe would never see EOF) and, on request, the write end of a sync pipe as fd 3 (conmon's
// _OCI_SYNCPIPE). A worker spawns it, reports {pid, syncFd} (first callback), waits for the
// direct child only (a daemonized grandchild does not delay the report) and reports its exit
// (second callback), both through the one thread-safe function, so in that order.

// One message from the worker to JavaScript.
struct detached_msg {
  struct delivery d;
  int kind;         // 0: spawned (or failed to), 1: exited
  int spawn_errno;  // kind 0: set when the child could not be started
  int pid, sync_fd; // kind 0: sync_fd -1 without a sync pipe
  int stdio_fd[3];  // kind 0 with pipes: our ends of the child's stdin, stdout, stderr (else -1)
  int exit_code;    // kind 1: -1 when killed by a signal
  int term_signal;  // kind 1: 0 when it exited
};

struct detached_job {
  char *file, *cwd;
  char **argv, **envp;
  int with_sync;
  int with_pipes;  // stdin/stdout/stderr on pipes (our ends reported), in our session; else /dev/null, setsid
  int extra;       // spawnWithPipes: socket pairs on the child's fds 3.. (our ends reported in stdio_fd)
  struct detached_msg *spawned, *exited;  // allocated up front: the worker never fails to report
};

static void free_detached_job(struct detached_job *job) {
  free(job->spawned);
  free(job->exited);
  free(job->file);
  free(job->cwd);
  free_string_array(job->argv);
  free_string_array(job->envp);
  free(job);
}

static void close_msg_fds(struct detached_msg *msg) {
  close_fd(&msg->sync_fd);
  for (int i = 0; i < 3; i++) close_fd(&msg->stdio_fd[i]);
}

static void detached_work(void *arg) {
  struct detached_job *job = arg;
  struct detached_msg *spawned = job->spawned, *exited = job->exited;
  job->spawned = job->exited = NULL;  // from here on, owned by the messages sent (or freed below)
  int sync[2] = {-1, -1};
  int io[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};  // the child's stdin, stdout, stderr
  pid_t pid = -1;
  int rc = 0;
  // spawnWithPipes: one socket pair per extra fd, like child_process's 'pipe'. The child's ends are
  // moved above the fds they go to first, for dup2 onto 3.. must not clobber one another.
  int pair[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};
  for (int i = 0; i < job->extra && rc == 0; i++) {
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair[i]) < 0) rc = errno;
    else if (pair[i][1] < 3 + job->extra) {
      int moved = fcntl(pair[i][1], F_DUPFD_CLOEXEC, 3 + job->extra);
      if (moved < 0) rc = errno;
      close_fd(&pair[i][1]);
      pair[i][1] = moved;
    }
  }
  // O_CLOEXEC as for the sync pipe; dup2 onto 0/1/2 in the child clears it there.
  if (job->with_pipes)
    for (int i = 0; i < 3 && rc == 0; i++)
      if (pipe2(io[i], O_CLOEXEC) < 0) rc = errno;
  // O_CLOEXEC: no other child (ours or libuv's) may inherit the pipe; dup2 onto fd 3 in the child
  // clears the flag there. The write end is moved above 3 first, for dup2(3, 3) would keep it.
  if (job->with_sync) {
    if (pipe2(sync, O_CLOEXEC) < 0) rc = errno;
    else if (sync[1] <= 3) {
      int moved = fcntl(sync[1], F_DUPFD_CLOEXEC, 4);
      if (moved < 0) rc = errno;
      close_fd(&sync[1]);
      sync[1] = moved;
    }
  }
  if (rc == 0) {
    posix_spawn_file_actions_t fa;
    posix_spawnattr_t attr;
    posix_spawn_file_actions_init(&fa);
    if (job->with_pipes) {
      posix_spawn_file_actions_adddup2(&fa, io[0][0], 0);
      posix_spawn_file_actions_adddup2(&fa, io[1][1], 1);
      posix_spawn_file_actions_adddup2(&fa, io[2][1], 2);
    } else {
      posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
      posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
      posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
    }
    if (sync[1] >= 0) posix_spawn_file_actions_adddup2(&fa, sync[1], 3);
    for (int i = 0; i < job->extra; i++) posix_spawn_file_actions_adddup2(&fa, pair[i][1], 3 + i);
    if (job->cwd) posix_spawn_file_actions_addchdir_np(&fa, job->cwd);
    spawn_attr_init(&attr, job->with_pipes ? 0 : POSIX_SPAWN_SETSID);
    struct spawn_target target = {job->file, job->cwd, job->argv, job->envp};
    rc = spawn_resolved(&pid, &target, &fa, &attr);
    posix_spawn_file_actions_destroy(&fa);
    posix_spawnattr_destroy(&attr);
  }
  close_fd(&sync[1]);
  close_fd(&io[0][0]);
  close_fd(&io[1][1]);
  close_fd(&io[2][1]);
  for (int i = 0; i < 3; i++) close_fd(&pair[i][1]);
  if (rc != 0) {
    for (int i = 0; i < 3; i++) close_fd(&pair[i][0]);
    close_fd(&sync[0]);
    close_fd(&io[0][1]);
    close_fd(&io[1][0]);
    close_fd(&io[2][0]);
    spawned->spawn_errno = rc;
    spawned->d.last = 1;
    post(&spawned->d);
    free(exited);
    goto out;
  }
  spawned->pid = pid;
  spawned->sync_fd = sync[0];
  spawned->stdio_fd[0] = io[0][1];
  spawned->stdio_fd[1] = io[1][0];
  spawned->stdio_fd[2] = io[2][0];
  for (int i = 0; i < job->extra; i++) spawned->stdio_fd[i] = pair[i][0];
  post(&spawned->d);
  int status = 0;
  pid_t w;
  do w = waitpid(pid, &status, 0);
  while (w < 0 && errno == EINTR);
  if (w != pid) exited->exit_code = 1;  // cannot happen: the child is ours alone
  else if (WIFSIGNALED(status)) {
    exited->exit_code = -1;
    exited->term_signal = WTERMSIG(status);
  } else exited->exit_code = WEXITSTATUS(status);
  post(&exited->d);
out:
  free_detached_job(job);
}

// On the JS thread: callback(0, errno, pid, syncFd, stdinFd, stdoutFd, stderrFd) once, then, if it
// started, callback(1, exitCode, signal). Without env (going away): the fds it carries are closed.
static void detached_deliver(napi_env env, napi_value callback, struct delivery *d) {
  struct detached_msg *msg = (struct detached_msg *)d;
  if (env) {
    napi_value argv[7], undefined;
    napi_get_undefined(env, &undefined);
    napi_create_int32(env, msg->kind, &argv[0]);
    for (int i = 3; i < 7; i++) argv[i] = undefined;
    if (msg->kind == 0) {
      napi_create_int32(env, msg->spawn_errno, &argv[1]);
      napi_create_int32(env, msg->pid, &argv[2]);
      napi_create_int32(env, msg->sync_fd, &argv[3]);
      for (int i = 0; i < 3; i++) napi_create_int32(env, msg->stdio_fd[i], &argv[4 + i]);
    } else {
      napi_create_int32(env, msg->exit_code, &argv[1]);
      napi_create_int32(env, msg->term_signal, &argv[2]);
    }
    napi_call_function(env, undefined, callback, 7, argv, NULL);
  } else {
    close_msg_fds(msg);
  }
  free(msg);
}

// Starts a detached thread with every signal blocked, so that signals (SIGCHLD, SIGINT...) reach
// Node's own threads and a write to a closed pipe gives EPIPE; a child resets its mask.
static int start_thread(void *(*fn)(void *), void *arg, size_t stack) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  pthread_attr_setstacksize(&attr, stack);
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_t thread;
  int rc = pthread_create(&thread, &attr, fn, arg);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  pthread_attr_destroy(&attr);
  return rc;
}

// Hands a detached or piped spawn to a worker; throws only when the arguments are bad or no worker
// can be made. argv: file, argv, env|null, envExtra|null, cwd|null (see js_run_process).
static napi_value start_spawn(napi_env env, napi_value *argv, napi_value callback, bool with_sync, bool with_pipes, int extra, const char *what) {
  struct spawn_env *se = spawn_env_of(env);
  if (!se) return NULL;
  struct detached_job *job = calloc(1, sizeof *job);
  if (!job) return throw_errno(env, what, NULL, ENOMEM);
  job->spawned = calloc(1, sizeof *job->spawned);
  job->exited = calloc(1, sizeof *job->exited);
  if (!job->spawned || !job->exited) {
    free_detached_job(job);
    return throw_errno(env, what, NULL, ENOMEM);
  }
  struct delivery d = {.deliver = detached_deliver, .owner = se};
  *job->spawned = (struct detached_msg){.d = d, .kind = 0, .sync_fd = -1, .stdio_fd = {-1, -1, -1}};
  *job->exited = (struct detached_msg){.d = d, .kind = 1, .sync_fd = -1, .stdio_fd = {-1, -1, -1}};
  job->exited->d.last = 1;
  int ok_file, ok_cwd;
  job->file = get_string(env, argv[0], &ok_file);
  job->argv = get_string_array(env, argv[1]);
  job->envp = get_env(env, argv[2], argv[3]);
  job->cwd = get_string(env, argv[4], &ok_cwd);
  int bad = !job->file || !job->argv || !job->envp || !ok_cwd;
  job->with_sync = with_sync;
  job->with_pipes = with_pipes;
  job->extra = extra;
  napi_ref ref;
  if (bad || job_begin(env, se, callback, &ref) != 0) {
    free_detached_job(job);
    return throw_errno(env, what, NULL, EINVAL);
  }
  job->spawned->d.callback = job->exited->d.callback = ref;
  int rc = pool_submit(detached_work, job);
  if (rc != 0) {
    job_abandon(env, se, ref);
    free_detached_job(job);
    return throw_errno(env, "pthread_create", NULL, rc);
  }
  return NULL;
}

// spawnDetached(file, argv, env|null, envExtra|null, cwd|null, withSyncPipe, callback): stdio on
// /dev/null, a session of its own.
static napi_value js_spawn_detached(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  bool with_sync = false;
  if (!get_args(env, info, 7, argv) || napi_get_value_bool(env, argv[5], &with_sync) != napi_ok)
    return throw_errno(env, "spawnDetached", NULL, EINVAL);
  return start_spawn(env, argv, argv[6], with_sync, false, 0, "isulats.spawnDetached");
}

// spawnPiped(file, argv, env|null, envExtra|null, cwd|null, callback): stdin, stdout and stderr on
// pipes whose other ends are reported (the exec sessions' runc exec), in our session like
// child_process.spawn's.
static napi_value js_spawn_piped(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 6, argv)) return throw_errno(env, "spawnPiped", NULL, EINVAL);
  return start_spawn(env, argv, argv[5], false, true, 0, "isulats.spawnPiped");
}

// spawnWithPipes(file, argv, env|null, envExtra|null, cwd|null, count, callback): like spawnDetached
// (stdio on /dev/null, a session of its own) with `count` (1 to 3) socket pairs on the child's fds
// 3.. (conmon's _OCI_SYNCPIPE, _OCI_STARTPIPE, _OCI_ATTACHPIPE of an exec): callback(0, errno, pid,
// -1, ours3, ours4, ours5) reports our ends, -1 past `count`.
static napi_value js_spawn_with_pipes(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  int32_t count = 0;
  if (!get_args(env, info, 7, argv) || napi_get_value_int32(env, argv[5], &count) != napi_ok || count < 1 || count > 3)
    return throw_errno(env, "spawnWithPipes", NULL, EINVAL);
  return start_spawn(env, argv, argv[6], false, false, count, "isulats.spawnWithPipes");
}

// spawnStats() -> { workers, idle }: spawn workers ever made and those waiting for a job now.
static napi_value js_spawn_stats(napi_env env, napi_callback_info info) {
  (void)info;
  pthread_mutex_lock(&pool_mutex);
  double created = (double)pool_created;
  int idle = pool_idle;
  pthread_mutex_unlock(&pool_mutex);
  napi_value out, v;
  napi_create_object(env, &out);
  napi_create_double(env, created, &v);
  napi_set_named_property(env, out, "workers", v);
  napi_create_int32(env, idle, &v);
  napi_set_named_property(env, out, "idle", v);
  return out;
}

//
// seqpacketReader: conmon's attach socket (AF_UNIX, SOCK_SEQPACKET), which Node cannot open, read
// from a thread of its own so that reading can stop while the client is slow: conmon's writes then
// block and the container's output waits in its pipe or terminal, not in our memory. The thread
// connects, reports {fd, ctlFd}, then reads one message at a time and hands each over. JavaScript
// owns the socket, nonblocking (it writes stdin: one write, one message; shuts it down; closes it
// after the end is reported) and the write end of a control pipe: 'p' pauses reading, 'r' resumes,
// closing it stops the thread. The thread never closes the socket. fdReader runs the same thread on
// an fd JavaScript already owns: a TTY exec's terminal master, which Node cannot read without
// blocking writes (libuv writes a pty master it cannot reopen in blocking mode).

#define SEQ_QUEUE 16  // messages handed over and not yet delivered; the thread waits beyond that

struct seq_msg {
  int kind;  // 0: connected (or not: err), 1: data, 2: end (err set on a read error)
  int err, fd, ctl_fd;
  size_t len;
  char data[];
};

struct seq_job {
  char *path;  // connect to it; NULL: read `fd`, which JavaScript already owns (fdReader)
  int fd;
  napi_threadsafe_function tsfn;
};

static int seq_send(napi_threadsafe_function tsfn, int kind, int err, int fd, int ctl_fd, const char *data, size_t len) {
  struct seq_msg *msg = malloc(sizeof *msg + len);
  if (!msg) return -1;
  *msg = (struct seq_msg){.kind = kind, .err = err, .fd = fd, .ctl_fd = ctl_fd, .len = len};
  if (len) memcpy(msg->data, data, len);
  if (napi_call_threadsafe_function(tsfn, msg, napi_tsfn_blocking) != napi_ok) {
    free(msg);
    return -1;
  }
  return 0;
}

static void *seq_thread(void *arg) {
  struct seq_job *job = arg;
  napi_threadsafe_function tsfn = job->tsfn;
  int fd = job->fd, ctl[2] = {-1, -1}, err = 0;
  int owned = job->path != NULL;  // a socket of ours until JavaScript has it
  if (owned) {
    struct sockaddr_un addr = {.sun_family = AF_UNIX};
    if (strlen(job->path) >= sizeof addr.sun_path) err = ENAMETOOLONG;
    else strcpy(addr.sun_path, job->path);
    if (!err && (fd = socket(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0)) < 0) err = errno;
    if (!err && connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) err = errno;
  }
  // Nonblocking once connected: JavaScript's writes must never wait on the event loop.
  if (!err && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) < 0) err = errno;
  if (!err && pipe2(ctl, O_CLOEXEC) < 0) err = errno;
  if (err) {
    if (owned) close_fd(&fd);
    close_fd(&ctl[0]);
    close_fd(&ctl[1]);
    seq_send(tsfn, 0, err, -1, -1, NULL, 0);
    goto out;
  }
  if (seq_send(tsfn, 0, 0, fd, ctl[1], NULL, 0) < 0) {
    if (owned) close_fd(&fd);  // never reached JavaScript: ours to close
    close_fd(&ctl[1]);
    goto done;
  }
  char *buf = malloc(65536);
  int paused = 0, end_err = buf ? 0 : ENOMEM;
  while (buf) {
    struct pollfd fds[2] = {{.fd = ctl[0], .events = POLLIN}, {.fd = paused ? -1 : fd, .events = POLLIN}};
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      end_err = errno;
      break;
    }
    if (fds[0].revents) {
      char c[64];
      ssize_t n = read(ctl[0], c, sizeof c);
      if (n <= 0) break;  // JavaScript closed the control pipe: stop
      for (ssize_t i = 0; i < n; i++) paused = c[i] == 'p' ? 1 : c[i] == 'r' ? 0 : paused;
      continue;
    }
    if (!fds[1].revents) continue;
    ssize_t n = read(fd, buf, 65536);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    // A terminal's master side reads EIO once no process holds its other side: its end.
    if (n < 0 && !(errno == EIO && !owned)) end_err = errno;
    if (n <= 0) break;
    if (seq_send(tsfn, 1, 0, -1, -1, buf, (size_t)n) < 0) break;
  }
  free(buf);
  seq_send(tsfn, 2, end_err, -1, -1, NULL, 0);
done:
  close_fd(&ctl[0]);
out:
  free(job->path);
  free(job);
  napi_release_threadsafe_function(tsfn, napi_tsfn_release);
  return NULL;
}

// On the JS thread: callback(kind, errno, fd, ctlFd, data|undefined).
static void seq_deliver(napi_env env, napi_value callback, void *context, void *data) {
  struct seq_msg *msg = data;
  (void)context;
  if (env && callback) {
    napi_value argv[5];
    napi_create_int32(env, msg->kind, &argv[0]);
    napi_create_int32(env, msg->err, &argv[1]);
    napi_create_int32(env, msg->fd, &argv[2]);
    napi_create_int32(env, msg->ctl_fd, &argv[3]);
    if (msg->kind == 1) napi_create_buffer_copy(env, msg->len, msg->data, NULL, &argv[4]);
    else napi_get_undefined(env, &argv[4]);
    napi_value undefined;
    napi_get_undefined(env, &undefined);
    napi_call_function(env, undefined, callback, 5, argv, NULL);
  } else if (msg->kind == 0) {
    close_fd(&msg->fd);
    close_fd(&msg->ctl_fd);
  }
  free(msg);
}

static napi_value start_reader(napi_env env, napi_value callback, struct seq_job *job, const char *what) {
  napi_value name;
  napi_create_string_utf8(env, what, NAPI_AUTO_LENGTH, &name);
  if (napi_create_threadsafe_function(env, callback, NULL, name, SEQ_QUEUE, 1, NULL, NULL, NULL, seq_deliver, &job->tsfn) != napi_ok) {
    free(job->path);
    free(job);
    return throw_errno(env, what, NULL, EINVAL);
  }
  napi_threadsafe_function tsfn = job->tsfn;
  int rc = start_thread(seq_thread, job, 128 * 1024);
  if (rc != 0) {
    napi_release_threadsafe_function(tsfn, napi_tsfn_release);
    free(job->path);
    free(job);
    return throw_errno(env, "pthread_create", NULL, rc);
  }
  return NULL;
}

// seqpacketReader(path, callback): connects from a thread and reads as above.
static napi_value js_seqpacket_reader(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  if (!get_args(env, info, 2, argv)) return throw_errno(env, "seqpacketReader", NULL, EINVAL);
  struct seq_job *job = calloc(1, sizeof *job);
  if (!job) return throw_errno(env, "seqpacketReader", NULL, ENOMEM);
  int ok;
  job->path = get_string(env, argv[0], &ok);
  job->fd = -1;
  if (!job->path) {
    free(job);
    return throw_errno(env, "seqpacketReader", NULL, EINVAL);
  }
  return start_reader(env, argv[1], job, "isulats.seqpacketReader");
}

// fdReader(fd, callback): reads an fd JavaScript owns (a TTY exec's terminal master) as above:
// the first callback hands back the same fd with the control pipe; the thread never closes `fd`.
static napi_value js_fd_reader(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  int32_t fd;
  if (!get_args(env, info, 2, argv) || napi_get_value_int32(env, argv[0], &fd) != napi_ok || fd < 0) return throw_errno(env, "fdReader", NULL, EINVAL);
  struct seq_job *job = calloc(1, sizeof *job);
  if (!job) return throw_errno(env, "fdReader", NULL, ENOMEM);
  job->fd = fd;
  return start_reader(env, argv[1], job, "isulats.fdReader");
}

// recvFd(socketFd): the fd passed (SCM_RIGHTS) with the next message on a unix socket, close-on-exec;
// -1 when no message is there yet. Nonblocking. Extra fds in the same message are closed.
static napi_value js_recv_fd(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS], out;
  int32_t sock;
  if (!get_args(env, info, 1, argv) || napi_get_value_int32(env, argv[0], &sock) != napi_ok) return throw_errno(env, "recvFd", NULL, EINVAL);
  char data[256];
  struct iovec iov = {.iov_base = data, .iov_len = sizeof data};
  union {
    struct cmsghdr hdr;
    char buf[CMSG_SPACE(sizeof(int) * 4)];
  } control;
  struct msghdr msg = {.msg_iov = &iov, .msg_iovlen = 1, .msg_control = control.buf, .msg_controllen = sizeof control.buf};
  ssize_t n;
  while ((n = recvmsg(sock, &msg, MSG_DONTWAIT | MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
  }
  if (n < 0 && errno != EAGAIN) return throw_errno(env, "recvmsg", NULL, errno);
  int received = -1;
  if (n >= 0) {
    for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
      if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
      int count = (int)((c->cmsg_len - CMSG_LEN(0)) / sizeof(int));
      int *fds = (int *)CMSG_DATA(c);
      for (int i = 0; i < count; i++) {
        if (received < 0) received = fds[i];
        else close(fds[i]);
      }
    }
  }
  napi_create_int32(env, received, &out);
  return out;
}

// setWinsize(fd, rows, cols): TIOCSWINSZ on a terminal (its foreground process group gets SIGWINCH).
static napi_value js_set_winsize(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  int32_t fd, rows, cols;
  if (!get_args(env, info, 3, argv)) return throw_errno(env, "setWinsize", NULL, EINVAL);
  CHECK(napi_get_value_int32(env, argv[0], &fd));
  CHECK(napi_get_value_int32(env, argv[1], &rows));
  CHECK(napi_get_value_int32(env, argv[2], &cols));
  struct winsize ws = {.ws_row = (unsigned short)rows, .ws_col = (unsigned short)cols};
  if (ioctl(fd, TIOCSWINSZ, &ws) < 0) return throw_errno(env, "ioctl", NULL, errno);
  return NULL;
}

// shutdown(fd, how): 0 SHUT_RD, 1 SHUT_WR, 2 SHUT_RDWR.
static napi_value js_shutdown(napi_env env, napi_callback_info info) {
  napi_value argv[MAX_ARGS];
  int32_t fd, how;
  if (!get_args(env, info, 2, argv)) return throw_errno(env, "shutdown", NULL, EINVAL);
  CHECK(napi_get_value_int32(env, argv[0], &fd));
  CHECK(napi_get_value_int32(env, argv[1], &how));
  if (shutdown(fd, how) < 0) return throw_errno(env, "shutdown", NULL, errno);
  return NULL;
}

// malloc_trim(0): glibc keeps memory freed after a burst (V8's compiler zones,
// nghttp2 buffers) mapped, fragmented between live chunks; this returns every
// whole free page of every arena to the kernel. Answers whether any was returned.
static napi_value js_malloc_trim(napi_env env, napi_callback_info info) {
  (void)info;
  return make_bool(env, malloc_trim(0));
}

// The calling thread (the daemon's event loop) at nice `nice`, and SCHED_RESET_ON_FORK: every
// thread and child it starts afterwards begins at nice 0 (the kernel resets a negative nice on
// fork), so only this thread is raised; no runc, conmon, container or worker inherits it. Under a
// busy node the event loop waited for a CPU about 25 times as long as it ran (bench/streams
// --procs --load); a higher weight lets it take its turn, and it can never hold more than one CPU.
static napi_value js_raise_thread_priority(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  int32_t nice = 0;
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  if (argc < 1 || napi_get_value_int32(env, argv[0], &nice) != napi_ok) {
    napi_throw_type_error(env, NULL, "raiseThreadPriority(nice)");
    return NULL;
  }
  int policy = sched_getscheduler(0);
  if (policy < 0) return throw_errno(env, "sched_getscheduler", NULL, errno);
  policy &= ~SCHED_RESET_ON_FORK;
  if ((policy == SCHED_OTHER || policy == SCHED_BATCH) &&
      sched_setscheduler(0, policy | SCHED_RESET_ON_FORK, &(struct sched_param){0}) < 0)
    return throw_errno(env, "sched_setscheduler", NULL, errno);
  // PRIO_PROCESS with a thread ID: that thread only (Linux keeps nice per thread).
  if (setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice) < 0) return throw_errno(env, "setpriority", NULL, errno);
  return NULL;
}

static void pool_init(void) {
  const char *batch = getenv("ISULATS_SPAWN_BATCH");  // "0": workers keep SCHED_OTHER (to compare)
  // The flag, not the policy: a daemon re-executed by a raised thread keeps SCHED_RESET_ON_FORK.
  batch_workers = (sched_getscheduler(0) & ~SCHED_RESET_ON_FORK) == SCHED_OTHER && !(batch && strcmp(batch, "0") == 0);
  pthread_condattr_t attr;
  pthread_condattr_init(&attr);
  pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
  pthread_cond_init(&pool_wake, &attr);
  pthread_condattr_destroy(&attr);
}

static napi_value init(napi_env env, napi_value exports) {
  static pthread_once_t once = PTHREAD_ONCE_INIT;
  pthread_once(&once, pool_init);
  napi_property_descriptor props[] = {
      {"flock", NULL, js_flock, NULL, NULL, NULL, napi_enumerable, NULL},
      {"funlock", NULL, js_funlock, NULL, NULL, NULL, napi_enumerable, NULL},
      {"mknod", NULL, js_mknod, NULL, NULL, NULL, napi_enumerable, NULL},
      {"lsetxattr", NULL, js_lsetxattr, NULL, NULL, NULL, napi_enumerable, NULL},
      {"lgetxattr", NULL, js_lgetxattr, NULL, NULL, NULL, napi_enumerable, NULL},
      {"llistxattr", NULL, js_llistxattr, NULL, NULL, NULL, napi_enumerable, NULL},
      {"markTopDirectory", NULL, js_mark_top_directory, NULL, NULL, NULL, napi_enumerable, NULL},
      {"mount", NULL, js_mount, NULL, NULL, NULL, napi_enumerable, NULL},
      {"umount2", NULL, js_umount2, NULL, NULL, NULL, napi_enumerable, NULL},
      {"idmapMount", NULL, js_idmap_mount, NULL, NULL, NULL, napi_enumerable, NULL},
      {"peercred", NULL, js_peercred, NULL, NULL, NULL, napi_enumerable, NULL},
      {"execve", NULL, js_execve, NULL, NULL, NULL, napi_enumerable, NULL},
      {"runProcess", NULL, js_run_process, NULL, NULL, NULL, napi_enumerable, NULL},
      {"spawnDetached", NULL, js_spawn_detached, NULL, NULL, NULL, napi_enumerable, NULL},
      {"spawnPiped", NULL, js_spawn_piped, NULL, NULL, NULL, napi_enumerable, NULL},
      {"spawnWithPipes", NULL, js_spawn_with_pipes, NULL, NULL, NULL, napi_enumerable, NULL},
      {"spawnStats", NULL, js_spawn_stats, NULL, NULL, NULL, napi_enumerable, NULL},
      {"seqpacketReader", NULL, js_seqpacket_reader, NULL, NULL, NULL, napi_enumerable, NULL},
      {"fdReader", NULL, js_fd_reader, NULL, NULL, NULL, napi_enumerable, NULL},
      {"recvFd", NULL, js_recv_fd, NULL, NULL, NULL, napi_enumerable, NULL},
      {"setWinsize", NULL, js_set_winsize, NULL, NULL, NULL, napi_enumerable, NULL},
      {"shutdown", NULL, js_shutdown, NULL, NULL, NULL, napi_enumerable, NULL},
      {"mallocTrim", NULL, js_malloc_trim, NULL, NULL, NULL, napi_enumerable, NULL},
      {"raiseThreadPriority", NULL, js_raise_thread_priority, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  napi_define_properties(env, exports, sizeof props / sizeof props[0], props);
  return exports;
}

NAPI_MODULE(NODE_GYP_MODULE_NAME, init)
