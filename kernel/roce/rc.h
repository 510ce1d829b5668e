/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The RC transport.
 */
#ifndef _RUE_RC_H
#define _RUE_RC_H

extern const struct rue_transport_ops rue_rc_transport;

#endif /* _RUE_RC_H */
