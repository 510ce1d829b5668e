/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Host stand-in for <linux/moduleparam.h>.  A host test has no module
 * to take parameters: the variables keep their initial values (the
 * defaults), and tests set what they need in the structures built from
 * them.  The macros still check at compile time that the variable
 * exists and the description is a string, as far as C lets them.
 */
#ifndef _RUE_KHOST_LINUX_MODULEPARAM_H
#define _RUE_KHOST_LINUX_MODULEPARAM_H

#define module_param(name, type, perm) \
	_Static_assert(sizeof(name) > 0 && (perm) >= 0, "module_param " #name)

#define MODULE_PARM_DESC(name, desc) \
	_Static_assert(sizeof("" desc) > 1, "MODULE_PARM_DESC " #name)

#endif /* _RUE_KHOST_LINUX_MODULEPARAM_H */
