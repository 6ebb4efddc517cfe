import SMP
