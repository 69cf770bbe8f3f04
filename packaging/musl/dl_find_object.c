/* GCC's unwinder (libgcc_eh), which the static musl build links in place of
 * LLVM's libunwind, finds unwind tables through glibc's `_dl_find_object`.
 * musl has no such function: this one answers from `dl_iterate_phdr`. The
 * layout is glibc's for x86_64 (no `dlfo_eh_dbase`, no `dlfo_eh_count`). */
#define _GNU_SOURCE
#include <link.h>
#include <stddef.h>
#include <stdint.h>

struct dl_find_object {
  unsigned long long dlfo_flags;
  void *dlfo_map_start;
  void *dlfo_map_end;
  struct link_map *dlfo_link_map;
  void *dlfo_eh_frame;
  unsigned long long reserved[7];
};

struct search {
  uintptr_t pc;
  struct dl_find_object *result;
  int found;
};

static int visit(struct dl_phdr_info *info, size_t size, void *data) {
  struct search *search = data;
  uintptr_t start = UINTPTR_MAX, end = 0;
  void *eh_frame = NULL;
  int contains = 0;
  (void)size;
  for (size_t i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *header = &info->dlpi_phdr[i];
    uintptr_t from = info->dlpi_addr + header->p_vaddr;
    uintptr_t to = from + header->p_memsz;
    if (header->p_type == PT_LOAD) {
      if (from < start) start = from;
      if (to > end) end = to;
      if (search->pc >= from && search->pc < to) contains = 1;
    } else if (header->p_type == PT_GNU_EH_FRAME) {
      eh_frame = (void *)from;
    }
  }
  if (!contains) return 0;
  search->result->dlfo_flags = 0;
  search->result->dlfo_map_start = (void *)start;
  search->result->dlfo_map_end = (void *)end;
  search->result->dlfo_link_map = NULL;
  search->result->dlfo_eh_frame = eh_frame;
  search->found = 1;
  return 1;
}

int _dl_find_object(void *pc, struct dl_find_object *result) {
  struct search search = {(uintptr_t)pc, result, 0};
  dl_iterate_phdr(visit, &search);
  return search.found ? 0 : -1;
}
