// SPDX-License-Identifier: GPL-2.0
/*
 * latlab_inject: causes of latency, injected on purpose, for
 * bench/forensics.sh's ground truth in a qemu guest (never on a machine
 * that matters). Writing to /proc/latlab_inject:
 *
 *   preempt US   the writer spins US microseconds in the kernel with
 *                preemption off: a real-time thread woken meanwhile waits
 *                for the section's end, on any preemption model, PREEMPT_RT
 *                too — the task that ran it is what blocked the thread;
 *   irq US       an irq_work on the writer's CPU whose handler spins US
 *                microseconds in hard interrupt context (the irq_work
 *                vector): nothing else runs on that CPU meanwhile, not even
 *                the thread's own timer interrupt;
 *   flood US     a flood of short hard interrupts on the writer's CPU for
 *                about US microseconds: an irq_work whose handler spins
 *                FLOOD_RUN_US and queues itself again, back to back (the
 *                irq_work vector outranks the local timer's, so the
 *                thread's timer waits for the flood's end, as behind a
 *                device that interrupts without pause).
 *
 * US is 1 to 10000; the write returns when the section has run (an
 * irq_work's, once queued: it runs as the write returns to user space),
 * EBUSY while the last irq or flood has not.
 */
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/preempt.h>
#include <linux/proc_fs.h>
#include <linux/uaccess.h>

#define INJECT_MAX_US 10000

#define FLOOD_RUN_US 5

static unsigned int irq_us;
static unsigned int flood_left;	/* the flood's handler runs still to come */

/* udelay's argument is bounded by the architecture: spin a millisecond at most at a time */
static void spin_us(unsigned int us)
{
	while (us > 1000) {
		udelay(1000);
		us -= 1000;
	}
	udelay(us);
}

static void irq_spin(struct irq_work *work)
{
	spin_us(READ_ONCE(irq_us));
}

/* hard: its handler runs in the vector's interrupt on PREEMPT_RT too, not in a thread */
static struct irq_work spin_work = IRQ_WORK_INIT_HARD(irq_spin);

/*
 * One interrupt of the flood. Queued again from its own handler: the
 * work is no longer pending while it runs, and the vector is raised
 * anew, so the next run is the next interrupt, not a loop in this one.
 */
static void flood_run(struct irq_work *work)
{
	udelay(FLOOD_RUN_US);
	if (--flood_left > 0)
		irq_work_queue(work);
}

static struct irq_work flood_work = IRQ_WORK_INIT_HARD(flood_run);

static ssize_t inject_write(struct file *file, const char __user *ubuf, size_t len, loff_t *off)
{
	char buf[32], what[16];
	unsigned int us;

	if (len >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, len))
		return -EFAULT;
	buf[len] = '\0';
	if (sscanf(buf, "%15s %u", what, &us) != 2 || us < 1 || us > INJECT_MAX_US)
		return -EINVAL;
	if (strcmp(what, "preempt") == 0) {
		preempt_disable();
		spin_us(us);
		preempt_enable();
	} else if (strcmp(what, "irq") == 0) {
		if (irq_work_is_busy(&spin_work))
			return -EBUSY;	/* the last one has not run yet */
		WRITE_ONCE(irq_us, us);
		irq_work_queue(&spin_work);
	} else if (strcmp(what, "flood") == 0) {
		if (irq_work_is_busy(&flood_work))
			return -EBUSY;	/* the last flood still runs */
		flood_left = DIV_ROUND_UP(us, FLOOD_RUN_US);
		irq_work_queue(&flood_work);
	} else {
		return -EINVAL;
	}
	return len;
}

static const struct proc_ops inject_ops = {
	.proc_write = inject_write,
};

static struct proc_dir_entry *entry;

static int __init inject_init(void)
{
	entry = proc_create("latlab_inject", 0200, NULL, &inject_ops);
	return entry ? 0 : -ENOMEM;
}

static void __exit inject_exit(void)
{
	proc_remove(entry);
	irq_work_sync(&spin_work);
	irq_work_sync(&flood_work);	/* a flood ends: it queues itself a bounded number of times */
}

module_init(inject_init);
module_exit(inject_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("latlab's injected latency causes, for bench/forensics.sh in a guest");
