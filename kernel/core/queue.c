// SPDX-License-Identifier: GPL-2.0
/*
 * Ring memory and its mapping into user space.
 *
 * Rings up to RUE_RING_CONTIG_BYTES are physically contiguous so that
 * rdma_user_mmap_io() can map them: the core then tracks every mapping
 * and zaps it when the device is disassociated (unregistered while a
 * process holds it), and calls mmap_free once the driver has removed the
 * entry and the last mapping is gone.  Larger rings are vmalloc'd and
 * mapped page by page (vm_insert_page()), which the core does not track:
 * such a mapping outlives a disassociation, and each mapped page holds a
 * reference, so vfree() in mmap_free leaves the pages to the last unmap -
 * the process keeps its own ring's memory, nothing else.  Memory is
 * normal cacheable RAM, mapped with the VMA's own protection, and
 * charged to the memory cgroup of the process that creates the queue.
 */
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "compat.h"
#include "queue.h"

/**
 * rue_ring_alloc() - allocate a zeroed ring
 * @ring: the ring to set up
 * @nslots: number of slots, a power of two
 * @stride: slot size, a power of two
 *
 * Return: 0, -EINVAL if the ring would exceed RUE_RING_MAX_BYTES, or
 * -ENOMEM.
 */
int rue_ring_alloc(struct rue_ring *ring, u32 nslots, u32 stride)
{
	size_t size;

	if (!is_power_of_2(nslots) || !is_power_of_2(stride))
		return -EINVAL;
	size = RUE_RING_DATA_OFFSET + (size_t)nslots * stride;
	if (size > RUE_RING_MAX_BYTES)
		return -EINVAL;
	size = PAGE_ALIGN(size);

	if (size <= RUE_RING_CONTIG_BYTES)
		ring->buf = alloc_pages_exact(size, GFP_KERNEL_ACCOUNT |
						    __GFP_ZERO);
	else
		ring->buf = __vmalloc(size, GFP_KERNEL_ACCOUNT | __GFP_ZERO);
	if (!ring->buf)
		return -ENOMEM;
	ring->size = size;
	ring->hdr = ring->buf;
	ring->slots = ring->buf + RUE_RING_DATA_OFFSET;
	ring->nslots = nslots;
	ring->mask = nslots - 1;
	ring->stride = stride;
	ring->entry = NULL;
	return 0;
}

/**
 * rue_ring_map_user() - make a ring mappable by a user context
 * @ring: an allocated ring
 * @uctx: the context whose uverbs file will be mapped
 * @offset: returns the mmap offset to hand to user space
 *
 * On success the ring's memory belongs to the mmap entry.
 */
int rue_ring_map_user(struct rue_ring *ring, struct ib_ucontext *uctx,
		      u64 *offset)
{
	struct rue_mmap_entry *entry;
	int err;

	entry = kzalloc(sizeof(*entry), GFP_KERNEL);
	if (!entry)
		return -ENOMEM;
	entry->buf = ring->buf;
	entry->size = ring->size;
	err = rdma_user_mmap_entry_insert(uctx, &entry->rdma, ring->size);
	if (err) {
		kfree(entry);
		return err;
	}
	ring->entry = entry;
	*offset = rdma_user_mmap_get_offset(&entry->rdma);
	return 0;
}

static void rue_ring_buf_free(void *buf, size_t size)
{
	if (is_vmalloc_addr(buf))
		vfree(buf);
	else
		free_pages_exact(buf, size);
}

/* Free a kernel ring, or let go of a user ring (see struct rue_ring). */
void rue_ring_free(struct rue_ring *ring)
{
	if (ring->entry)
		rdma_user_mmap_entry_remove(&ring->entry->rdma);
	else if (ring->buf)
		rue_ring_buf_free(ring->buf, ring->size);
	ring->buf = NULL;
	ring->entry = NULL;
}

/* Map a vmalloc'd ring (the entry checked the VMA's length). */
static int rue_mmap_vmalloc(struct vm_area_struct *vma, void *buf,
			    size_t size)
{
	unsigned long addr = vma->vm_start;
	size_t off;
	int err;

	if (!(vma->vm_flags & VM_SHARED))
		return -EINVAL;	/* as rdma_user_mmap_io() */
	rue_vm_flags_set(vma, VM_DONTEXPAND | VM_DONTDUMP);
	for (off = 0; off < size; off += PAGE_SIZE, addr += PAGE_SIZE) {
		err = vm_insert_page(vma, addr, vmalloc_to_page(buf + off));
		if (err)
			return err;
	}
	return 0;
}

int rue_mmap(struct ib_ucontext *uctx, struct vm_area_struct *vma)
{
	struct rdma_user_mmap_entry *rdma_entry;
	struct rue_mmap_entry *entry;
	int err;

	rdma_entry = rdma_user_mmap_entry_get(uctx, vma);
	if (!rdma_entry)
		return -EINVAL;
	entry = container_of(rdma_entry, struct rue_mmap_entry, rdma);
	if (!is_vmalloc_addr(entry->buf))
		err = rdma_user_mmap_io(uctx, vma,
					PHYS_PFN(virt_to_phys(entry->buf)),
					entry->size, vma->vm_page_prot,
					rdma_entry);
	else
		err = rue_mmap_vmalloc(vma, entry->buf, entry->size);
	rdma_user_mmap_entry_put(rdma_entry);
	return err;
}

void rue_mmap_free(struct rdma_user_mmap_entry *rdma_entry)
{
	struct rue_mmap_entry *entry =
		container_of(rdma_entry, struct rue_mmap_entry, rdma);

	rue_ring_buf_free(entry->buf, entry->size);
	kfree(entry);
}
