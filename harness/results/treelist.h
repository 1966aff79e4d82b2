/*
 * Trees as the readers and the baseline gate are given them: a list
 * ("A,B,C": campaigns of one side) split one way everywhere, and trees
 * known by what their paths lead to (device and inode), not by how they
 * are spelled — A, ./A and A/ are one tree.
 */
#ifndef LATLAB_TREELIST_H
#define LATLAB_TREELIST_H

#include <stddef.h>

/*
 * One argument's trees: "A,B,C" are campaigns of one side, each of its
 * own tree; a path that is a directory as it stands is one tree, commas
 * and all. `what` names the argument in errors ("--baseline"). Copies
 * (malloc'ed) into out[0..max): how many, or -EINVAL (empty, or an empty
 * item: err says which), -E2BIG past max, -ENOMEM.
 */
int tree_list_split(const char *arg, const char *what, char **out, int max, char *err,
		    size_t len);

/*
 * Is no tree named twice? Each path is in a group (a side of compare, its
 * baseline, a point of history). A tree may be in one group once; with
 * self_ok, a group of one tree may be another group of one tree (a tree
 * against itself: one campaign a side, which compare never calls), never
 * a campaign of a side of several. 0, or -EINVAL with both spellings in
 * err, -ENOMEM. A path that leads nowhere is left to tree_read to say.
 */
int tree_list_distinct(char *const *path, const int *group, int n, int self_ok, char *err,
		       size_t len);

#endif
