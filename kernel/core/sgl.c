// SPDX-License-Identifier: GPL-2.0
/*
 * Scatter/gather lists.  Every SGE here already passed its lkey check and
 * holds a reference on its MR (struct rue_ksge), so these helpers only
 * walk: from a byte offset in the message to the SGE and the address in
 * it, through rue_mr_*(), which never step outside the region.
 */
#include "mr.h"
#include "qp.h"
#include "sgl.h"

/* Find the SGE holding message byte @off; *skip is the offset in it. */
static u32 rue_sgl_seek(const struct rue_ksge *sg, u32 nsge, u32 off, u32 *skip)
{
	u32 i;

	for (i = 0; i < nsge && off >= sg[i].length; i++)
		off -= sg[i].length;
	*skip = off;
	return i;
}

/* Payload can go out as page fragments: big enough, and lendable memory. */
bool rue_sgl_can_lend(const struct rue_ksge *sg, u32 nsge, u32 off, u32 len)
{
	u32 i, skip;

	for (i = rue_sgl_seek(sg, nsge, off, &skip); i < nsge && len; i++) {
		if (!rue_mr_can_frag(sg[i].mr))
			return false;
		len -= min(len, sg[i].length - skip);
		skip = 0;
	}
	return true;
}

/**
 * rue_sgl_to_skb() - append message bytes [off, off + len) to a packet
 * @sg: the message's SGEs
 * @nsge: how many
 * @off: message offset
 * @len: bytes
 * @skb: the packet; copies go to its tail room, lent pages to fragments
 * @lend: lend pages (rue_sgl_can_lend() said so) instead of copying
 */
int rue_sgl_to_skb(const struct rue_ksge *sg, u32 nsge, u32 off, u32 len,
		   struct sk_buff *skb, bool lend)
{
	u32 i, skip, n;
	int err;

	for (i = rue_sgl_seek(sg, nsge, off, &skip); len; i++, skip = 0) {
		if (unlikely(i >= nsge))
			return -EINVAL;
		n = min(len, sg[i].length - skip);
		if (lend)
			err = rue_mr_add_frags(sg[i].mr, sg[i].addr + skip, n, skb);
		else
			err = rue_mr_copy_to_buf(sg[i].mr, sg[i].addr + skip,
						 skb_put(skb, n), n);
		if (unlikely(err))
			return err;
		len -= n;
	}
	return 0;
}

/* Place packet bytes at message offset @off of a receive or read buffer. */
int rue_sgl_from_skb(const struct rue_ksge *sg, u32 nsge, u32 off,
		     const struct sk_buff *skb, int skb_off, u32 len)
{
	u32 i, skip, n;
	int err;

	for (i = rue_sgl_seek(sg, nsge, off, &skip); len; i++, skip = 0) {
		if (unlikely(i >= nsge))
			return -EINVAL;
		n = min(len, sg[i].length - skip);
		err = rue_mr_copy_from_skb(sg[i].mr, sg[i].addr + skip, skb,
					   skb_off, n);
		if (unlikely(err))
			return err;
		skb_off += n;
		len -= n;
	}
	return 0;
}

int rue_sgl_from_buf(const struct rue_ksge *sg, u32 nsge, u32 off,
		     const void *buf, u32 len)
{
	u32 i, skip, n;
	int err;

	for (i = rue_sgl_seek(sg, nsge, off, &skip); len; i++, skip = 0) {
		if (unlikely(i >= nsge))
			return -EINVAL;
		n = min(len, sg[i].length - skip);
		err = rue_mr_copy_from_buf(sg[i].mr, sg[i].addr + skip, buf, n);
		if (unlikely(err))
			return err;
		buf += n;
		len -= n;
	}
	return 0;
}

/* Drop the MR references of an SGE list. */
void rue_sgl_put(struct rue_ksge *sg, u32 nsge)
{
	u32 i;

	for (i = 0; i < nsge; i++) {
		if (sg[i].mr) {
			rue_mr_put(sg[i].mr);
			sg[i].mr = NULL;
		}
	}
}
